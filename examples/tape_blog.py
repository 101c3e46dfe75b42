"""The seed blog post "TensorFlow2.0中训练代码的新风格" (GradientTape snippets), on tfcompat.

    python examples/tape_blog.py

Cells are separated by `# %%` lines; `examples/tape_blog.ipynb` is the same code as a notebook.

Its code verbatim except for `import tensorflow as tf` -> `import tfcompat as tf`. The
post's first snippet is a fragment of a training step (indented as in the post, using
names it never defines); it runs here dedented, after the few lines that give it the
model, data and optimizer it assumes. Its TF 1-era calls (`tf.losses.sparse_softmax_cross_entropy`,
`tf.train.get_or_create_global_step()`, `apply_gradients(..., global_step=...)`) and the
third snippet's `tf.enable_eager_execution()` run as TF 1.x ran them.
"""
# %% context the first snippet assumes (not in the post)
import tfcompat as tf

(mnist_images, mnist_labels), _ = tf.keras.datasets.mnist.load_data()
images = tf.cast(mnist_images[:32, ..., tf.newaxis] / 255, tf.float32)
labels = tf.cast(mnist_labels[:32], tf.int64)
mnist_model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(16, [3, 3], activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])
optimizer = tf.keras.optimizers.Adam()

# %% snippet 1 (dedented)
with tf.GradientTape() as tape:
    logits = mnist_model(images, training=True)
    loss_value = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    #  loss_value 必须在tape内部

grads = tape.gradient(loss_value, mnist_model.variables)
optimizer.apply_gradients(zip(grads, mnist_model.variables),
                          global_step=tf.train.get_or_create_global_step())
print("snippet 1: loss", float(loss_value), "global step", int(tf.train.get_or_create_global_step()))

# %% snippet 2
import tfcompat as tf  # noqa: E402,F811

# tf.enable_eager_execution()      1.12往后的tf1.x需要加入这一条代码
with tf.GradientTape() as tape:
    x = tf.Variable(tf.ones((2,2)))
    y = tf.Variable([[2,2],[2,2]],dtype=tf.float32)
    # y = x+1
    z = tf.matmul(x,y)
    loss = tf.reduce_mean(z)
grads = tape.gradient(loss,x)
print(grads)

# %% snippet 3
import tfcompat as tf  # noqa: E402,F811

tf.enable_eager_execution()

with tf.GradientTape() as tape:
    x = tf.Variable(tf.ones((2,2)))
    y = tf.Variable([[2,2],[2,2]],dtype=tf.float32)
    # y = x+1
    z = tf.matmul(x,y)
    loss = tf.reduce_mean(z)
grads = tape.gradient(loss,[x,y])   # 用[ ]装载需要求导的变量
print(grads)
