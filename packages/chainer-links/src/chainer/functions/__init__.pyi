"""Every public name of ``chainer.functions``, with the module it comes from.

``__init__.py`` imports each name from its module on first access (``chainer._lazy``); type
checkers read this file. Keep the plain ``from .module import name as name`` form.
"""

from . import (
    activation as activation,
)
from . import (
    array as array,
)
from . import (
    connection as connection,
)
from . import (
    evaluation as evaluation,
)
from . import (
    loss as loss,
)
from . import (
    math as math,
)
from . import (
    noise as noise,
)
from . import (
    normalization as normalization,
)
from . import (
    pooling as pooling,
)
from . import (
    rnn as rnn,
)
from . import (
    theano as theano,
)
from . import (
    util as util,
)
from .activation.clipped_relu import clipped_relu as clipped_relu
from .activation.clipped_relu import relu6 as relu6
from .activation.crelu import crelu as crelu
from .activation.elu import elu as elu
from .activation.hard_sigmoid import hard_sigmoid as hard_sigmoid
from .activation.leaky_relu import leaky_relu as leaky_relu
from .activation.log_softmax import log_softmax as log_softmax
from .activation.maxout import maxout as maxout
from .activation.prelu import prelu as prelu
from .activation.relu import relu as relu
from .activation.rrelu import rrelu as rrelu
from .activation.selu import selu as selu
from .activation.sigmoid import sigmoid as sigmoid
from .activation.softmax import softmax as softmax
from .activation.softplus import softplus as softplus
from .activation.swish import swish as swish
from .activation.tanh import tanh as tanh
from .array.as_strided import as_strided as as_strided
from .array.broadcast import broadcast as broadcast
from .array.broadcast import broadcast_to as broadcast_to
from .array.cast import cast as cast
from .array.concat import concat as concat
from .array.copy import copy as copy
from .array.depth2space import depth2space as depth2space
from .array.diagonal import diagonal as diagonal
from .array.dstack import dstack as dstack
from .array.expand_dims import expand_dims as expand_dims
from .array.flatten import flatten as flatten
from .array.flip import flip as flip
from .array.fliplr import fliplr as fliplr
from .array.flipud import flipud as flipud
from .array.get_item import get_item as get_item
from .array.hstack import hstack as hstack
from .array.im2col import im2col as im2col
from .array.moveaxis import moveaxis as moveaxis
from .array.pad import pad as pad
from .array.pad_sequence import pad_sequence as pad_sequence
from .array.permutate import permutate as permutate
from .array.repeat import repeat as repeat
from .array.reshape import reshape as reshape
from .array.resize_images import resize_images as resize_images
from .array.rollaxis import rollaxis as rollaxis
from .array.scatter_add import scatter_add as scatter_add
from .array.select_item import select_item as select_item
from .array.separate import separate as separate
from .array.space2depth import space2depth as space2depth
from .array.spatial_transformer_grid import spatial_transformer_grid as spatial_transformer_grid
from .array.spatial_transformer_sampler import (
    spatial_transformer_sampler as spatial_transformer_sampler,
)
from .array.split_axis import split_axis as split_axis
from .array.squeeze import squeeze as squeeze
from .array.stack import stack as stack
from .array.swapaxes import swapaxes as swapaxes
from .array.tile import tile as tile
from .array.transpose import transpose as transpose
from .array.transpose_sequence import transpose_sequence as transpose_sequence
from .array.vstack import vstack as vstack
from .array.where import where as where
from .connection.bilinear import bilinear as bilinear
from .connection.convolution_2d import convolution_2d as convolution_2d
from .connection.convolution_nd import (
    convolution_1d as convolution_1d,
)
from .connection.convolution_nd import (
    convolution_3d as convolution_3d,
)
from .connection.convolution_nd import (
    convolution_nd as convolution_nd,
)
from .connection.deconvolution_2d import deconvolution_2d as deconvolution_2d
from .connection.deconvolution_nd import (
    deconvolution_1d as deconvolution_1d,
)
from .connection.deconvolution_nd import (
    deconvolution_3d as deconvolution_3d,
)
from .connection.deconvolution_nd import (
    deconvolution_nd as deconvolution_nd,
)
from .connection.deformable_convolution_2d_sampler import (
    deformable_convolution_2d_sampler as deformable_convolution_2d_sampler,
)
from .connection.depthwise_convolution_2d import (
    depthwise_convolution_2d as depthwise_convolution_2d,
)
from .connection.dilated_convolution_2d import dilated_convolution_2d as dilated_convolution_2d
from .connection.embed_id import embed_id as embed_id
from .connection.linear import linear as linear
from .connection.local_convolution_2d import local_convolution_2d as local_convolution_2d
from .connection.shift import shift as shift
from .evaluation.accuracy import accuracy as accuracy
from .evaluation.binary_accuracy import binary_accuracy as binary_accuracy
from .evaluation.classification_summary import (
    classification_summary as classification_summary,
)
from .evaluation.classification_summary import (
    f1_score as f1_score,
)
from .evaluation.classification_summary import (
    precision as precision,
)
from .evaluation.classification_summary import (
    recall as recall,
)
from .evaluation.r2_score import r2_score as r2_score
from .loss.absolute_error import absolute_error as absolute_error
from .loss.black_out import black_out as black_out
from .loss.contrastive import contrastive as contrastive
from .loss.crf1d import argmax_crf1d as argmax_crf1d
from .loss.crf1d import crf1d as crf1d
from .loss.cross_covariance import cross_covariance as cross_covariance
from .loss.ctc import (
    connectionist_temporal_classification as connectionist_temporal_classification,
)
from .loss.decov import decov as decov
from .loss.discriminative_loss import (
    discriminative_margin_based_clustering_loss as discriminative_margin_based_clustering_loss,
)
from .loss.hinge import hinge as hinge
from .loss.huber_loss import huber_loss as huber_loss
from .loss.mean_absolute_error import mean_absolute_error as mean_absolute_error
from .loss.mean_squared_error import mean_squared_error as mean_squared_error
from .loss.negative_sampling import negative_sampling as negative_sampling
from .loss.sigmoid_cross_entropy import sigmoid_cross_entropy as sigmoid_cross_entropy
from .loss.softmax_cross_entropy import softmax_cross_entropy as softmax_cross_entropy
from .loss.squared_error import (
    squared_difference as squared_difference,
)
from .loss.squared_error import (
    squared_error as squared_error,
)
from .loss.triplet import triplet as triplet
from .loss.vae import (
    bernoulli_nll as bernoulli_nll,
)
from .loss.vae import (
    gaussian_kl_divergence as gaussian_kl_divergence,
)
from .loss.vae import (
    gaussian_nll as gaussian_nll,
)
from .math.arctanh import arctanh as arctanh
from .math.average import average as average
from .math.average import mean as mean
from .math.basic_math import absolute as absolute
from .math.basic_math import add as add
from .math.batch_l2_norm_squared import batch_l2_norm_squared as batch_l2_norm_squared
from .math.bias import bias as bias
from .math.ceil import ceil as ceil
from .math.cholesky import cholesky as cholesky
from .math.clip import clip as clip
from .math.cumprod import cumprod as cumprod
from .math.cumsum import cumsum as cumsum
from .math.det import batch_det as batch_det
from .math.det import det as det
from .math.digamma import digamma as digamma
from .math.einsum import einsum as einsum
from .math.erf import erf as erf
from .math.erfc import erfc as erfc
from .math.erfcinv import erfcinv as erfcinv
from .math.erfcx import erfcx as erfcx
from .math.erfinv import erfinv as erfinv
from .math.exponential import exp as exp
from .math.exponential import log as log
from .math.exponential import log2 as log2
from .math.exponential import log10 as log10
from .math.exponential_m1 import expm1 as expm1
from .math.fft import fft as fft
from .math.fft import ifft as ifft
from .math.fix import fix as fix
from .math.floor import floor as floor
from .math.fmod import fmod as fmod
from .math.hyperbolic import cosh as cosh
from .math.hyperbolic import sinh as sinh
from .math.identity import identity as identity
from .math.inv import batch_inv as batch_inv
from .math.inv import inv as inv
from .math.lgamma import lgamma as lgamma
from .math.linear_interpolate import linear_interpolate as linear_interpolate
from .math.log_ndtr import log_ndtr as log_ndtr
from .math.logarithm_1p import log1p as log1p
from .math.logsumexp import logsumexp as logsumexp
from .math.matmul import batch_matmul as batch_matmul
from .math.matmul import matmul as matmul
from .math.maximum import maximum as maximum
from .math.minimum import minimum as minimum
from .math.minmax import argmax as argmax
from .math.minmax import argmin as argmin
from .math.minmax import max as max
from .math.minmax import min as min
from .math.ndtr import ndtr as ndtr
from .math.ndtri import ndtri as ndtri
from .math.polygamma import polygamma as polygamma
from .math.prod import prod as prod
from .math.scale import scale as scale
from .math.sign import sign as sign
from .math.sparse_matmul import sparse_matmul as sparse_matmul
from .math.sqrt import rsqrt as rsqrt
from .math.sqrt import sqrt as sqrt
from .math.square import square as square
from .math.sum import sum as sum
from .math.sum import sum_to as sum_to
from .math.tensordot import tensordot as tensordot
from .math.trigonometric import (
    arccos as arccos,
)
from .math.trigonometric import (
    arcsin as arcsin,
)
from .math.trigonometric import (
    arctan as arctan,
)
from .math.trigonometric import (
    arctan2 as arctan2,
)
from .math.trigonometric import (
    cos as cos,
)
from .math.trigonometric import (
    sin as sin,
)
from .math.trigonometric import (
    tan as tan,
)
from .math.zeta import zeta as zeta
from .noise.dropout import dropout as dropout
from .noise.gaussian import gaussian as gaussian
from .noise.gumbel_softmax import gumbel_softmax as gumbel_softmax
from .noise.simplified_dropconnect import simplified_dropconnect as simplified_dropconnect
from .noise.zoneout import zoneout as zoneout
from .normalization.batch_normalization import (
    batch_normalization as batch_normalization,
)
from .normalization.batch_normalization import (
    fixed_batch_normalization as fixed_batch_normalization,
)
from .normalization.batch_renormalization import (
    batch_renormalization as batch_renormalization,
)
from .normalization.batch_renormalization import (
    fixed_batch_renormalization as fixed_batch_renormalization,
)
from .normalization.decorrelated_batch_normalization import (
    decorrelated_batch_normalization as decorrelated_batch_normalization,
)
from .normalization.decorrelated_batch_normalization import (
    fixed_decorrelated_batch_normalization as fixed_decorrelated_batch_normalization,
)
from .normalization.group_normalization import group_normalization as group_normalization
from .normalization.l2_normalization import normalize as normalize
from .normalization.layer_normalization import layer_normalization as layer_normalization
from .normalization.local_response_normalization import (
    local_response_normalization as local_response_normalization,
)
from .pooling.average_pooling_2d import average_pooling_2d as average_pooling_2d
from .pooling.average_pooling_nd import (
    average_pooling_1d as average_pooling_1d,
)
from .pooling.average_pooling_nd import (
    average_pooling_3d as average_pooling_3d,
)
from .pooling.average_pooling_nd import (
    average_pooling_nd as average_pooling_nd,
)
from .pooling.max_pooling_nd import (
    max_pooling_1d as max_pooling_1d,
)
from .pooling.max_pooling_nd import (
    max_pooling_2d as max_pooling_2d,
)
from .pooling.max_pooling_nd import (
    max_pooling_3d as max_pooling_3d,
)
from .pooling.max_pooling_nd import (
    max_pooling_nd as max_pooling_nd,
)
from .pooling.roi_average_align_2d import roi_average_align_2d as roi_average_align_2d
from .pooling.roi_average_pooling_2d import roi_average_pooling_2d as roi_average_pooling_2d
from .pooling.roi_max_align_2d import roi_max_align_2d as roi_max_align_2d
from .pooling.roi_max_pooling_2d import roi_max_pooling_2d as roi_max_pooling_2d
from .pooling.roi_pooling_2d import roi_pooling_2d as roi_pooling_2d
from .pooling.spatial_pyramid_pooling_2d import (
    spatial_pyramid_pooling_2d as spatial_pyramid_pooling_2d,
)
from .pooling.unpooling_2d import unpooling_2d as unpooling_2d
from .pooling.unpooling_nd import (
    unpooling_1d as unpooling_1d,
)
from .pooling.unpooling_nd import (
    unpooling_3d as unpooling_3d,
)
from .pooling.unpooling_nd import (
    unpooling_nd as unpooling_nd,
)
from .pooling.upsampling_2d import upsampling_2d as upsampling_2d
from .rnn.lstm import lstm as lstm
from .rnn.n_step_gru import n_step_bigru as n_step_bigru
from .rnn.n_step_gru import n_step_gru as n_step_gru
from .rnn.n_step_lstm import n_step_bilstm as n_step_bilstm
from .rnn.n_step_lstm import n_step_lstm as n_step_lstm
from .rnn.n_step_rnn import n_step_birnn as n_step_birnn
from .rnn.n_step_rnn import n_step_rnn as n_step_rnn
from .rnn.slstm import slstm as slstm
from .rnn.tree_lstm import tree_lstm as tree_lstm
from .util.forget import forget as forget
