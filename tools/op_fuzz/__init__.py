"""Differential op fuzzer: seeded op calls, TF 2.21's recorded outcomes, and their replay under tfcompat.

    cases.py    the seeded generator: a table of ops with argument generators; cases are plain JSON data
    runner.py   decodes a case against a `tf` module (TensorFlow or tfcompat), runs it, encodes the outcome
    record.py   runs the cases in the TF venv and writes tests/fixtures/op_fuzz/cases.json.gz
    compare.py  compares two outcomes with tolerances by dtype, and names the failure class
    replay.py   replays a fixture under tfcompat and reports agreement per namespace and failure class
    known.py    the ops that may still differ, with reasons; divergences.json: the whole set's failing cases
                (written by `replay --write-divergences`, read by tools/compat_matrix.py)

    /root/tfvenv/bin/python tools/op_fuzz/record.py [--seed N --count N --out PATH]
    python -m tools.op_fuzz.replay [--all | --sample N] [--fixture PATH] [-v]

Only the standard library and NumPy are used besides the implementation run (TF or tfcompat).
"""
