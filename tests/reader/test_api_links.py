"""The official documentation of each API entry (docs/_ext/reader/api_links.py)."""

import pytest

from reader.api_links import official_url


@pytest.mark.parametrize("name, url", [
    ("torch.cat", "https://docs.pytorch.org/docs/stable/generated/torch.cat.html"),
    ("torch.Tensor.view", "https://docs.pytorch.org/docs/stable/generated/torch.Tensor.view.html"),
    ("torch.nn.Conv2d", "https://docs.pytorch.org/docs/stable/generated/torch.nn.Conv2d.html"),
    ("torch.nn.Module.train", "https://docs.pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.train"),
    ("torch.nn.init.xavier_uniform_", "https://docs.pytorch.org/docs/stable/nn.init.html#torch.nn.init.xavier_uniform_"),
    ("torch.utils.data.DataLoader", "https://docs.pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"),
    ("torch.device", "https://docs.pytorch.org/docs/stable/tensor_attributes.html#torch.device"),
    ("numpy.nanmean", "https://numpy.org/doc/stable/reference/generated/numpy.nanmean.html"),
    ("pickle.dumps", "https://docs.python.org/3/library/pickle.html#pickle.dumps"),
    ("iter", "https://docs.python.org/3/library/functions.html#iter"),
    ("torch.optim.Optimizer", "https://docs.pytorch.org/docs/stable/optim.html#torch.optim.Optimizer"),
    ("torch.optim.Optimizer.zero_grad",
     "https://docs.pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html"),
    ("torch.distributed.init_process_group",
     "https://docs.pytorch.org/docs/stable/distributed.html#torch.distributed.init_process_group"),
    ("torch.nn.SyncBatchNorm.convert_sync_batchnorm",
     "https://docs.pytorch.org/docs/stable/generated/torch.nn.SyncBatchNorm.html#torch.nn.SyncBatchNorm.convert_sync_batchnorm"),
    ("range", "https://docs.python.org/3/library/stdtypes.html#range"),
    ("torch.serialization.add_safe_globals",
     "https://docs.pytorch.org/docs/stable/notes/serialization.html#torch.serialization.add_safe_globals"),
    ("torchvision.transforms.v2.Resize",
     "https://docs.pytorch.org/vision/stable/generated/torchvision.transforms.v2.Resize.html"),
    ("torchvision.datasets.FakeData",
     "https://docs.pytorch.org/vision/stable/generated/torchvision.datasets.FakeData.html"),
    ("torchvision.models.resnet18",
     "https://docs.pytorch.org/vision/stable/models/generated/torchvision.models.resnet18.html"),
    ("torchvision.models.ResNet18_Weights",
     "https://docs.pytorch.org/vision/stable/models/generated/torchvision.models.resnet18.html"
     "#torchvision.models.ResNet18_Weights"),
])
def test_official_urls(name, url):
    assert official_url(name) == url
