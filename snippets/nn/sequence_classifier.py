"""A small sequence classifier: nn.Embedding -> nn.LSTM over a packed batch -> nn.Linear.

Run as a script, it pads a tiny made-up batch of token sequences of different lengths,
prints the shape of every stage of the forward pass, checks the final states the LSTM
returns for the packed batch against its unpacked output (forward direction: each
sequence's last real token; backward direction: its first token), and trains the model
for a few steps. The page nn/recurrent shows it;
tests/examples/test_snippets.py compares what it prints with sequence_classifier.out.
"""

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# [data]
PAD = 0  # token id 0 is padding; the real tokens are 1..9
sequences = [  # class 1: the sequence contains token 9
    torch.tensor([4, 9, 1, 3]),
    torch.tensor([2, 5]),
    torch.tensor([8, 6, 3, 7, 2, 9]),
    torch.tensor([5]),
    torch.tensor([1, 9, 2]),
]
labels = torch.tensor([1, 0, 1, 0, 1])
lengths = torch.tensor([len(s) for s in sequences])  # stays on the CPU
tokens = pad_sequence(sequences, batch_first=True, padding_value=PAD)  # (N, L)
# [/data]


# [model]
class SequenceClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_size, num_classes, num_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embedding_dim, hidden_size, num_layers=num_layers,
                            batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden_size, num_classes)

    def forward(self, tokens, lengths, verbose=False):
        embedded = self.embedding(tokens)  # (N, L, E)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_output, (h_n, c_n) = self.lstm(packed)  # h_n: (num_layers * 2, N, H), never batch first
        layers = h_n.view(self.lstm.num_layers, 2, len(lengths), self.lstm.hidden_size)
        final = torch.cat([layers[-1, 0], layers[-1, 1]], dim=1)  # last layer: forward, backward
        logits = self.head(final)  # (N, num_classes)
        if verbose:
            output, output_lengths = pad_packed_sequence(packed_output, batch_first=True)
            print(f"tokens          {tuple(tokens.shape)}  (N, L)")
            print(f"embedded        {tuple(embedded.shape)}  (N, L, E)")
            print(f"packed.data     {tuple(packed.data.shape)}  (sum of lengths, E)")
            print(f"batch_sizes     {packed.batch_sizes.tolist()}")
            print(f"output          {tuple(output.shape)}  (N, L, 2 * H), padded again")
            print(f"h_n             {tuple(h_n.shape)}  (num_layers * 2, N, H)")
            print(f"h_n.view        {tuple(layers.shape)}  (num_layers, 2, N, H)")
            print(f"final           {tuple(final.shape)}  (N, 2 * H)")
            print(f"logits          {tuple(logits.shape)}  (N, num_classes)")
            H = self.lstm.hidden_size
            last = output[torch.arange(len(lengths)), output_lengths - 1, :H]  # forward, last real step
            print("forward final state == output at the last real step:",
                  torch.allclose(layers[-1, 0], last, atol=1e-6))
            print("backward final state == output at step 0:",
                  torch.allclose(layers[-1, 1], output[:, 0, H:], atol=1e-6))
        return logits
# [/model]


# [train]
model = SequenceClassifier(vocab_size=10, embedding_dim=8, hidden_size=6, num_classes=2).to(device)
tokens, labels = tokens.to(device), labels.to(device)  # lengths stays on the CPU
with torch.no_grad():
    model(tokens, lengths, verbose=True)

optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.CrossEntropyLoss()
for step in range(1, 21):
    optimizer.zero_grad()
    loss = loss_fn(model(tokens, lengths), labels)
    loss.backward()
    optimizer.step()
    if step in (1, 20):
        print(f"step {step:2d}: loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    predictions = model(tokens, lengths).argmax(dim=1)
print("predictions", predictions.tolist(), "labels", labels.tolist())
# [/train]
