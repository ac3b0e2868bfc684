"""A small Transformer encoder block, shown on the nn/attention page.

Token embedding + sinusoidal positions + nn.TransformerEncoder with a padding mask
and a causal mask, then two heads: a language-model head (next-token logits at every
position) and a classifier head (mean over the real tokens). It prints the shape at
every stage and checks that the two masks do what they should. CPU, a few seconds;
tests/examples/test_snippets.py compares the output with transformer_block.out.
"""

import math

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

PAD = 0          # token id used for padding
VOCAB = 20       # token ids 0..19
MAX_LEN = 16     # longest sequence the positional table covers
NUM_CLASSES = 3


# [model]
class SinusoidalPositions(nn.Module):
    """Adds the fixed sine/cosine position signal of "Attention Is All You Need"."""

    def __init__(self, d_model, max_len):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)                      # (max_len, 1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(max_len, d_model)
        table[:, 0::2] = torch.sin(position * div)
        table[:, 1::2] = torch.cos(position * div)
        self.register_buffer("table", table)                                # saved, not trained

    def forward(self, x):                                                   # x: (N, L, d_model)
        return x + self.table[: x.size(1)]


class TinyTransformer(nn.Module):
    def __init__(self, vocab, d_model=16, nhead=2, num_layers=2, num_classes=NUM_CLASSES):
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.pos = SinusoidalPositions(d_model, MAX_LEN)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=4 * d_model, dropout=0.1,
                                           batch_first=True, norm_first=True)
        # norm_first layers: the stack ends with its own LayerNorm; the nested-tensor
        # fast path does not apply to them, so it is switched off (no warning).
        self.encoder = nn.TransformerEncoder(layer, num_layers, norm=nn.LayerNorm(d_model),
                                             enable_nested_tensor=False)
        self.lm_head = nn.Linear(d_model, vocab)
        self.cls_head = nn.Linear(d_model, num_classes)

    def forward(self, tokens, lengths, causal=True, show=False):
        length = tokens.shape[1]
        positions = torch.arange(length, device=tokens.device)
        padding = positions >= lengths.unsqueeze(1)                         # (N, L), True = padding
        mask = None
        if causal:                                                          # (L, L), True above the diagonal
            mask = torch.ones(length, length, dtype=torch.bool, device=tokens.device).triu(1)
        x = self.embed(tokens) * math.sqrt(self.d_model)                    # (N, L, d_model)
        x = self.pos(x)
        h = self.encoder(x, mask=mask, src_key_padding_mask=padding, is_causal=causal)
        logits = self.lm_head(h)                                            # (N, L, vocab)
        keep = (~padding).unsqueeze(-1).to(h.dtype)                         # (N, L, 1)
        pooled = (h * keep).sum(1) / keep.sum(1)                            # (N, d_model)
        class_logits = self.cls_head(pooled)                                # (N, num_classes)
        if show:
            print("tokens      ", tuple(tokens.shape))
            print("padding mask", tuple(padding.shape), padding.dtype)
            print("causal mask ", tuple(mask.shape), mask.dtype)
            print("embedded    ", tuple(x.shape))
            print("encoded     ", tuple(h.shape))
            print("lm logits   ", tuple(logits.shape))
            print("pooled      ", tuple(pooled.shape))
            print("class logits", tuple(class_logits.shape))
        return logits, class_logits


# [/model]


# [run]
tokens = torch.tensor([[5, 3, 8, 2, 9, 4],
                       [7, 1, 6, 2, PAD, PAD]], device=device)
lengths = torch.tensor([6, 4], device=device)                       # real tokens per sequence
model = TinyTransformer(VOCAB).to(device)
print("parameters  ", sum(p.numel() for p in model.parameters()))

model.train()
logits, class_logits = model(tokens, lengths, show=True)
# next-token prediction: position t predicts token t + 1; padding targets are ignored
lm_loss = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), tokens[:, 1:].reshape(-1), ignore_index=PAD)
cls_loss = F.cross_entropy(class_logits, torch.tensor([0, 2], device=device))
(lm_loss + cls_loss).backward()
print("losses      ", f"{lm_loss.item():.4f}", f"{cls_loss.item():.4f}")

model.eval()
with torch.no_grad():
    # 1. causal mask: changing a later token leaves the outputs at earlier positions alone
    future = tokens.clone()
    future[0, 5] = 13
    before, _ = model(tokens, lengths)
    after, _ = model(future, lengths)
    print("causal: earlier positions unchanged", torch.allclose(before[0, :5], after[0, :5], atol=1e-5))
    print("causal: last position changed      ", not torch.allclose(before[0, 5], after[0, 5], atol=1e-5))
    # 2. padding mask (bidirectional run): what stands at the padded positions is not seen
    other = tokens.clone()
    other[1, 4:] = torch.tensor([11, 12], device=device)
    before, _ = model(tokens, lengths, causal=False)
    after, _ = model(other, lengths, causal=False)
    print("padding: real positions unchanged  ", torch.allclose(before[1, :4], after[1, :4], atol=1e-5))
    unmasked, _ = model(other, torch.tensor([6, 6], device=device), causal=False)
    print("without the padding mask, unchanged", torch.allclose(before[1, :4], unmasked[1, :4], atol=1e-5))
# [/run]
