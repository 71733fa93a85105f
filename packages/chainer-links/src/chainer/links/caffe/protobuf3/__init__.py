"""Caffe's message schema (``caffe.proto``) and the classes built from it (:mod:`.caffe_pb2`)."""
