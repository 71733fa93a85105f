"""Every public name of ``chainer.links``, with the module it comes from.

``__init__.py`` imports each name from its module on first access (``chainer._lazy``); type
checkers read this file. Keep the plain ``from .module import name as name`` form.
"""

from . import (
    activation as activation,
)
from . import (
    connection as connection,
)
from . import (
    loss as loss,
)
from . import (
    model as model,
)
from . import (
    normalization as normalization,
)
from . import (
    rnn as rnn,
)
from . import (
    theano as theano,
)
from .activation.maxout import Maxout as Maxout
from .activation.prelu import PReLU as PReLU
from .activation.simplified_dropconnect import SimplifiedDropconnect as SimplifiedDropconnect
from .activation.swish import Swish as Swish
from .connection.bias import Bias as Bias
from .connection.bilinear import Bilinear as Bilinear
from .connection.convolution_2d import Convolution2D as Convolution2D
from .connection.convolution_nd import (
    Convolution1D as Convolution1D,
)
from .connection.convolution_nd import (
    Convolution3D as Convolution3D,
)
from .connection.convolution_nd import (
    ConvolutionND as ConvolutionND,
)
from .connection.deconvolution_2d import Deconvolution2D as Deconvolution2D
from .connection.deconvolution_nd import (
    Deconvolution1D as Deconvolution1D,
)
from .connection.deconvolution_nd import (
    Deconvolution3D as Deconvolution3D,
)
from .connection.deconvolution_nd import (
    DeconvolutionND as DeconvolutionND,
)
from .connection.deformable_convolution_2d import (
    DeformableConvolution2D as DeformableConvolution2D,
)
from .connection.depthwise_convolution_2d import DepthwiseConvolution2D as DepthwiseConvolution2D
from .connection.dilated_convolution_2d import DilatedConvolution2D as DilatedConvolution2D
from .connection.embed_id import EmbedID as EmbedID
from .connection.highway import Highway as Highway
from .connection.inception import Inception as Inception
from .connection.inceptionbn import InceptionBN as InceptionBN
from .connection.linear import Linear as Linear
from .connection.local_convolution_2d import LocalConvolution2D as LocalConvolution2D
from .connection.mlp_convolution_2d import MLPConvolution2D as MLPConvolution2D
from .connection.parameter import Parameter as Parameter
from .connection.scale import Scale as Scale
from .loss.black_out import BlackOut as BlackOut
from .loss.crf1d import CRF1d as CRF1d
from .loss.hierarchical_softmax import BinaryHierarchicalSoftmax as BinaryHierarchicalSoftmax
from .loss.negative_sampling import NegativeSampling as NegativeSampling
from .model.classifier import Classifier as Classifier
from .model.vision.googlenet import GoogLeNet as GoogLeNet
from .model.vision.resnet import (
    ResNet50Layers as ResNet50Layers,
)
from .model.vision.resnet import (
    ResNet101Layers as ResNet101Layers,
)
from .model.vision.resnet import (
    ResNet152Layers as ResNet152Layers,
)
from .model.vision.vgg import VGG16Layers as VGG16Layers
from .model.vision.vgg import VGG19Layers as VGG19Layers
from .normalization.batch_normalization import BatchNormalization as BatchNormalization
from .normalization.batch_renormalization import BatchRenormalization as BatchRenormalization
from .normalization.decorrelated_batch_normalization import (
    DecorrelatedBatchNormalization as DecorrelatedBatchNormalization,
)
from .normalization.group_normalization import GroupNormalization as GroupNormalization
from .normalization.layer_normalization import LayerNormalization as LayerNormalization
from .rnn.gru import GRU as GRU
from .rnn.gru import StatefulGRU as StatefulGRU
from .rnn.gru import StatelessGRU as StatelessGRU
from .rnn.lstm import LSTM as LSTM
from .rnn.lstm import StatelessLSTM as StatelessLSTM
from .rnn.mgu import StatefulMGU as StatefulMGU
from .rnn.mgu import StatelessMGU as StatelessMGU
from .rnn.n_step_gru import NStepBiGRU as NStepBiGRU
from .rnn.n_step_gru import NStepGRU as NStepGRU
from .rnn.n_step_lstm import NStepBiLSTM as NStepBiLSTM
from .rnn.n_step_lstm import NStepLSTM as NStepLSTM
from .rnn.n_step_rnn import (
    NStepBiRNNReLU as NStepBiRNNReLU,
)
from .rnn.n_step_rnn import (
    NStepBiRNNTanh as NStepBiRNNTanh,
)
from .rnn.n_step_rnn import (
    NStepRNNReLU as NStepRNNReLU,
)
from .rnn.n_step_rnn import (
    NStepRNNTanh as NStepRNNTanh,
)
from .rnn.peephole import StatefulPeepholeLSTM as StatefulPeepholeLSTM
from .rnn.tree_lstm import ChildSumTreeLSTM as ChildSumTreeLSTM
from .rnn.tree_lstm import NaryTreeLSTM as NaryTreeLSTM
from .rnn.zoneoutlstm import StatefulZoneoutLSTM as StatefulZoneoutLSTM
