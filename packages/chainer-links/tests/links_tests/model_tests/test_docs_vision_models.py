"""The docs' VGG16 and ResNet152 definitions ("Convolutional Network for Visual Recognition
Tasks") build and run forward and backward on small inputs, as written there."""

import numpy

import chainer
import chainer.functions as F
import chainer.links as L


class VGG16(chainer.ChainList):
    def __init__(self):
        super().__init__(
            VGGBlock(64),
            VGGBlock(128),
            VGGBlock(256, 3),
            VGGBlock(512, 3),
            VGGBlock(512, 3, True),
        )

    def forward(self, x):
        for f in self.children():
            x = f(x)
        if chainer.config.train:
            return x
        return F.softmax(x)


class VGGBlock(chainer.Chain):
    def __init__(self, n_channels, n_convs=2, fc=False):
        w = chainer.initializers.HeNormal()
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, n_channels, 3, 1, 1, initialW=w)
            self.conv2 = L.Convolution2D(n_channels, n_channels, 3, 1, 1, initialW=w)
            if n_convs == 3:
                self.conv3 = L.Convolution2D(n_channels, n_channels, 3, 1, 1, initialW=w)
            if fc:
                self.fc4 = L.Linear(None, 4096, initialW=w)
                self.fc5 = L.Linear(4096, 4096, initialW=w)
                self.fc6 = L.Linear(4096, 1000, initialW=w)
        self.n_convs = n_convs
        self.fc = fc

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        if self.n_convs == 3:
            h = F.relu(self.conv3(h))
        h = F.max_pooling_2d(h, 2, 2)
        if self.fc:
            h = F.dropout(F.relu(self.fc4(h)))
            h = F.dropout(F.relu(self.fc5(h)))
            h = self.fc6(h)
        return h


class ResNet152(chainer.Chain):
    def __init__(self, n_blocks=(3, 8, 36, 3)):
        w = chainer.initializers.HeNormal()
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, 64, 7, 2, 3, initialW=w, nobias=True)
            self.bn1 = L.BatchNormalization(64)
            self.res2 = ResBlock(n_blocks[0], 64, 64, 256, 1)
            self.res3 = ResBlock(n_blocks[1], 256, 128, 512)
            self.res4 = ResBlock(n_blocks[2], 512, 256, 1024)
            self.res5 = ResBlock(n_blocks[3], 1024, 512, 2048)
            self.fc6 = L.Linear(2048, 1000)

    def forward(self, x):
        h = self.bn1(self.conv1(x))
        h = F.max_pooling_2d(F.relu(h), 2, 2)
        h = self.res2(h)
        h = self.res3(h)
        h = self.res4(h)
        h = self.res5(h)
        h = F.average_pooling_2d(h, h.shape[2:], stride=1)
        h = self.fc6(h)
        if chainer.config.train:
            return h
        return F.softmax(h)


class ResBlock(chainer.ChainList):
    def __init__(self, n_layers, n_in, n_mid, n_out, stride=2):
        super().__init__()
        self.add_link(BottleNeck(n_in, n_mid, n_out, stride, True))
        for _ in range(n_layers - 1):
            self.add_link(BottleNeck(n_out, n_mid, n_out))

    def forward(self, x):
        for f in self.children():
            x = f(x)
        return x


class BottleNeck(chainer.Chain):
    def __init__(self, n_in, n_mid, n_out, stride=1, proj=False):
        w = chainer.initializers.HeNormal()
        super().__init__()
        with self.init_scope():
            self.conv1x1a = L.Convolution2D(n_in, n_mid, 1, stride, 0, initialW=w, nobias=True)
            self.conv3x3b = L.Convolution2D(n_mid, n_mid, 3, 1, 1, initialW=w, nobias=True)
            self.conv1x1c = L.Convolution2D(n_mid, n_out, 1, 1, 0, initialW=w, nobias=True)
            self.bn_a = L.BatchNormalization(n_mid)
            self.bn_b = L.BatchNormalization(n_mid)
            self.bn_c = L.BatchNormalization(n_out)
            if proj:
                self.conv1x1r = L.Convolution2D(n_in, n_out, 1, stride, 0, initialW=w, nobias=True)
                self.bn_r = L.BatchNormalization(n_out)
        self.proj = proj

    def forward(self, x):
        h = F.relu(self.bn_a(self.conv1x1a(x)))
        h = F.relu(self.bn_b(self.conv3x3b(h)))
        h = self.bn_c(self.conv1x1c(h))
        if self.proj:
            x = self.bn_r(self.conv1x1r(x))
        return F.relu(h + x)


def _train_step(model, x, t):
    model.cleargrads()
    loss = F.softmax_cross_entropy(model(x), t)
    loss.backward()
    return loss


def test_vgg16_builds_and_trains_one_step():
    model = VGG16()
    x = numpy.random.uniform(-1, 1, (2, 3, 32, 32)).astype(numpy.float32)
    loss = _train_step(model, x, numpy.array([3, 7], numpy.int32))
    assert numpy.isfinite(loss.array)
    conv_layers = [link for link in model.links() if isinstance(link, L.Convolution2D)]
    linear_layers = [link for link in model.links() if isinstance(link, L.Linear)]
    assert len(conv_layers) + len(linear_layers) == 16
    assert model[4].fc4.W.shape == (4096, 512)  # lazily sized from the 1x1x512 feature map
    assert all(p.grad is not None and p.grad.shape == p.shape for p in model.params())
    with chainer.using_config("train", False):
        probabilities = model(x).array
    numpy.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)


def test_resnet152_builds_and_trains_one_step():
    model = ResNet152()
    convs = [link for link in model.links() if isinstance(link, L.Convolution2D)]
    # 1 stem + 3 per bottleneck x 50 bottlenecks, plus 4 projection shortcuts.
    assert len(convs) == 1 + 3 * 50 + 4
    x = numpy.random.uniform(-1, 1, (2, 3, 32, 32)).astype(numpy.float32)
    loss = _train_step(model, x, numpy.array([1, 999], numpy.int32))
    assert numpy.isfinite(loss.array)
    assert model.conv1.W.grad is not None and numpy.isfinite(model.conv1.W.grad).all()
    assert model.bn1.avg_mean.shape == (64,)
    with chainer.using_config("train", False):
        probabilities = model(x).array
    assert probabilities.shape == (2, 1000)
    numpy.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)
