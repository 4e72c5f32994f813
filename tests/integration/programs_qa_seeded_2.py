"""QA programs that rely on the seed, continued (see programs_qa_seeded.py): stochastic
layers, packed recurrent models with dropout, workers' draws, and PyTorch's examples
(time-sequence prediction with LBFGS, the word language model)."""
from programs_qa_seeded import seeded

seeded("qa_seeded_stochastic_layers", r'''
import torch.nn.utils.prune as prune
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
x = torch.linspace(-2, 2, 24).reshape(2, 3, 4)
show(nn.RReLU(0.1, 0.3)(x)[0], nn.Dropout1d(0.5)(x)[:, :, 0])
show(nn.Dropout2d(0.5)(x.reshape(1, 2, 3, 4))[0, :, 0], nn.Dropout3d(0.4)(x.reshape(1, 2, 3, 2, 2)).sum((2, 3, 4)))
show(nn.AlphaDropout(0.2)(x[0]), nn.FeatureAlphaDropout(0.3)(x.reshape(2, 3, 2, 2))[:, :, 0, 0])
out, idx = nn.FractionalMaxPool2d(2, output_size=(3, 3), return_indices=True)(torch.arange(50.0).reshape(1, 2, 5, 5))
print(out.tolist(), idx[0, 0].tolist())
lin = nn.Linear(6, 6)
prune.random_unstructured(lin, "weight", amount=0.3)
prune.random_structured(lin, "weight", amount=2, dim=0)
print(lin.weight_mask.sum(1).tolist(), list(dict(lin.named_buffers())))
block = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.ReLU(), nn.Linear(8, 1))
inp = torch.randn(3, 4, requires_grad=True)
y = checkpoint(block, inp, use_reentrant=False)
y.sum().backward()
show(y.squeeze(), inp.grad[0])
show(torch.rand(2))
''')

seeded("qa_seeded_packed_lstm_dropout", r'''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
torch.manual_seed(0)
seqs = [torch.randn(n, 3) for n in (5, 2, 4)]
lengths = torch.tensor([5, 2, 4])
padded = pad_sequence(seqs, batch_first=True)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.3, bidirectional=True)
gru = nn.GRU(3, 5, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
out, lens = pad_packed_sequence(out, batch_first=True)
show(out[1, :3], h[-1], d=3)
o2, h2 = gru(packed)
show(h2, d=3)
opt = torch.optim.RMSprop(list(lstm.parameters()) + list(gru.parameters()), lr=0.01)
for step in range(3):
    out, _ = lstm(packed)
    out, _ = pad_packed_sequence(out, batch_first=True)
    loss = out.pow(2).mean() + gru(packed)[1].abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(step, loss, d=3)
''')

seeded("qa_seeded_iterable_workers", r'''
from torch.utils.data import IterableDataset, DataLoader, get_worker_info
class Stream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        wid = 0 if info is None else info.id
        n = 1 if info is None else info.num_workers
        for i in range(wid, 8, n):
            yield i, torch.rand(1).item(), torch.randint(0, 100, (1,)).item()
torch.manual_seed(0)
for batch in DataLoader(Stream(), batch_size=None, num_workers=0):
    print(batch[0], round(batch[1], 4), batch[2])
torch.manual_seed(0)
rows = sorted(DataLoader(Stream(), batch_size=None, num_workers=2))
print([(i, round(r, 4), k) for i, r, k in rows])
show(torch.rand(2))
''')

seeded("qa_seeded_time_sequence_lbfgs", r'''
import numpy as np
np.random.seed(2)
T, L, N = 20, 100, 12
x = np.empty((N, L), np.int64)
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")
class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 16)
        self.lstm2 = nn.LSTMCell(16, 16)
        self.linear = nn.Linear(16, 1)
    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 16, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 16, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 16, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 16, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)
torch.manual_seed(0)
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])
seq = Sequence().double()
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8)
for i in range(2):
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        loss.backward()
        return loss
    optimizer.step(closure)
    with torch.no_grad():
        pred = seq(test_input, future=5)
        loss = criterion(pred[:, :-5], test_target)
        print("step", i, "test loss:", round(loss.item(), 6))
print(pred[:, -5:].numpy().round(4))
''')

seeded("qa_seeded_word_language_model", r'''
class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers
    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)
    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden
    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)
def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)
torch.manual_seed(1111)
ntokens, bptt, bsz = 30, 5, 4
corpus = torch.randint(0, ntokens, (bsz * 21,))
train_data = corpus.view(bsz, -1).t().contiguous()
for rnn_type, tie in (("LSTM", True), ("GRU", False)):
    model = RNNModel(rnn_type, ntokens, 12, 12, 2, dropout=0.2, tie_weights=tie)
    criterion = nn.NLLLoss()
    lr = 5.0
    model.train()
    hidden = model.init_hidden(bsz)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        seq_len = min(bptt, len(train_data) - 1 - i)
        data, targets = train_data[i:i + seq_len], train_data[i + 1:i + 1 + seq_len].reshape(-1)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        print(rnn_type, batch, round(loss.item(), 4))
    model.eval()
    with torch.no_grad():
        hidden = model.init_hidden(1)
        inp = torch.randint(ntokens, (1, 1), dtype=torch.long)
        words = []
        for _ in range(8):
            output, hidden = model(inp, hidden)
            word_weights = output.squeeze().div(1.0).exp()
            word_idx = torch.multinomial(word_weights, 1)[0]
            inp.fill_(word_idx)
            words.append(int(word_idx))
        print(words)
''')
