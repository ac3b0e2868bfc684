"""The state every doctest group starts from (docs/_ext/examples/doctest_state.py)."""

import torch

from examples.doctest_state import reset_global_state


def test_reset_global_state_undoes_every_change():
    torch.manual_seed(123)
    torch.set_printoptions(precision=2)
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch.use_deterministic_algorithms(True)
    torch.autograd.set_detect_anomaly(True)
    torch.set_default_device("meta")
    torch.set_warn_always(True)
    reset_global_state()
    assert torch.get_default_device() == torch.device("cpu") and torch.empty(1).device.type == "cpu"
    assert not torch.is_warn_always_enabled()
    assert not torch.are_deterministic_algorithms_enabled()
    assert not torch.is_anomaly_enabled()
    assert torch.get_default_dtype() == torch.float32
    assert torch.is_grad_enabled()
    assert repr(torch.tensor([1 / 3])) == "tensor([0.3333])"
    first = torch.rand(2)
    reset_global_state()
    assert torch.equal(first, torch.rand(2))
