"""Keras's layer/model machinery: naming, call context, symbolic tensors, Sequential and Functional."""
