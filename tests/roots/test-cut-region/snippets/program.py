"""The doctest guide's program with its `data` end marker one line too high (tests/examples/test_negative.py)."""

import torch
from torch import nn

torch.manual_seed(0)

# [data]
x = torch.linspace(-1, 1, 64).unsqueeze(1)
# [/data]
y = 2 * x + 1

# [fit]
model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()
for step in range(200):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
# [/fit]

print(f"weight {model.weight.item():.3f}, bias {model.bias.item():.3f}, loss < 1e-6: {loss.item() < 1e-6}")
