"""Image-recognition architectures of the model zoo: VGG, GoogLeNet and ResNet."""
