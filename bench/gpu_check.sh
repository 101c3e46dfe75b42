#!/usr/bin/env bash
# Every GPU figure in one call: the suite's CUDA tests (`pytest -m cuda`), then every benchmark with `--device cuda`
# (bench/run_all.py) and a shortened memory soak, within about 8 minutes on one GPU.
#
#   bash bench/gpu_check.sh [--cpu-dry-run] [OUTDIR]
#
# The logs (one .tar.gz) and a JSON of the table's rows go to OUTDIR (default: $OUT where set, else /tmp/gpu-check-out).
# `--cpu-dry-run` runs the same steps on the CPU with brief benchmark runs (the CUDA cases skip): a check, on a
# machine without a GPU, that the script and every benchmark run; its figures are not to be quoted.
# Runs from a plain checkout: the repository goes on PYTHONPATH (no install needed); PYTHON picks the interpreter.
set -u -o pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DRY=0
if [ "${1:-}" = "--cpu-dry-run" ]; then
  DRY=1
  shift
fi
DEST="${1:-${OUT:-/tmp/gpu-check-out}}"
mkdir -p "$DEST/logs"
PY="${PYTHON:-python3}"
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
START=$SECONDS
status=0

step() {  # step NAME COMMAND...: runs and logs one step, remembering a failure
  echo "== $1 ($((SECONDS - START)) s in)"
  local name=$1
  shift
  "$@" 2>&1 | tee "$DEST/logs/$name.txt"
  local rc=$?
  [ $rc -eq 0 ] || { echo "!! $name exited $rc"; status=1; }
}

if [ $DRY -eq 1 ]; then
  DEVICE=cpu
  BENCH_ARGS=(--quick --timeout 300)
  SOAK_ARGS=(--steps 100 --epochs 2 --calls 20)
  TESTS=(tests/test_device_paths.py tests/test_bench_run_all.py)
else
  DEVICE=cuda
  BENCH_ARGS=(--timeout 150 --budget 330)    # the tests and the soak take the rest of the 8 minutes
  SOAK_ARGS=(--steps 2000 --epochs 5 --calls 200)
  TESTS=(-m cuda tests)
  if ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"; then
    echo "torch sees no CUDA device: nothing to check here (use --cpu-dry-run to try the script on a CPU)"
    exit 2
  fi
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$DEST/logs/gpu.txt"
fi
"$PY" -c "import torch, numpy; print('torch', torch.__version__, 'numpy', numpy.__version__, 'cuda',
torch.cuda.is_available() and torch.cuda.get_device_name(0))" | tee "$DEST/logs/versions.txt"

# 1. the suite's CUDA cases (on the CPU dry run: the device-parametrized tests, their CUDA cases skipped)
step tests "$PY" -m pytest -q -p no:cacheprovider -rs "${TESTS[@]}"

# 2. every benchmark on the device (the two-process distribute bench needs two GPUs for NCCL: not run here),
#    then the memory soak shortened to fit
step benchmarks "$PY" bench/run_all.py --device "$DEVICE" "${BENCH_ARGS[@]}" --skip distribute,soak \
  --log-dir "$DEST/logs" --json "$DEST/bench.json"
step soak "$PY" bench/bench_soak.py "${SOAK_ARGS[@]}"
# 3. with two GPUs: the two-process distribute bench on NCCL (MultiWorkerMirroredStrategy vs torch DDP); the
#    suite's tests/test_distribute_cuda.py ran in step 1 (its two-GPU cases skip on one GPU)
if [ $DRY -eq 0 ] && "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.device_count() >= 2 else 1)"; then
  step distribute "$PY" bench/bench_distribute.py --cuda --steps 100 --repeats 2
elif [ $DRY -eq 0 ]; then
  echo "== one GPU: no NCCL distribute bench (NCCL refuses two ranks on one GPU); its CPU/gloo figures come from" \
    "bench/bench_distribute.py without --cuda"
fi

# the logs as one archive (a device machine hands back only a few files), beside bench.json
tar czf "$DEST/gpu-check-logs.tar.gz" -C "$DEST" logs && rm -rf "$DEST/logs"
echo "== done in $((SECONDS - START)) s, status $status; in $DEST: bench.json, gpu-check-logs.tar.gz"
exit $status
