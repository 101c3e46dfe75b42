"""The seed guide's training loop for 3 epochs on full MNIST, printing test accuracy after each epoch.

    python bench/bench_seed_accuracy.py tfcompat [SEED]
    python bench/bench_seed_accuracy.py tensorflow [SEED]   # in an environment with real TensorFlow

The same script runs on TF for the comparison of accuracy bands (and of time).
"""
import os
import sys
import time

import numpy as np

if sys.argv[1] == "tensorflow":
    import tensorflow as tf
else:
    import tfcompat as tf
tf.random.set_seed(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
MNIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tfcompat", "_resources", "mnist.npz")
with np.load(MNIST) as f:
    x_train, y_train, x_test, y_test = f['x_train'], f['y_train'], f['x_test'], f['y_test']
dataset = tf.data.Dataset.from_tensor_slices(
  (tf.cast(x_train[...,tf.newaxis]/255, tf.float32), tf.cast(y_train,tf.int64))).shuffle(1000).batch(32)
mnist_model = tf.keras.Sequential([
  tf.keras.layers.Conv2D(16,[3,3], activation='relu'), tf.keras.layers.Conv2D(16,[3,3], activation='relu'),
  tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam()
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
def train_step(images, labels):
  with tf.GradientTape() as tape:
    logits = mnist_model(images, training=True)
    loss_value = loss_object(labels, logits)
  grads = tape.gradient(loss_value, mnist_model.trainable_variables)
  optimizer.apply_gradients(zip(grads, mnist_model.trainable_variables))
  return loss_value
t0 = time.time()
for epoch in range(3):
  for images, labels in dataset:
    train_step(images, labels)
  logits = mnist_model(tf.cast(x_test[..., tf.newaxis] / 255, tf.float32))
  acc = float(np.mean(np.argmax(logits.numpy(), 1) == y_test))
  print(f"{sys.argv[1]} epoch {epoch}: test accuracy {acc:.4f} ({time.time() - t0:.0f}s)", flush=True)
