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

seeded("qa_seeded_mnist_example", r'''
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import TensorDataset, DataLoader
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 4 * 4, 16)
        self.fc2 = nn.Linear(16, 10)
    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)
torch.manual_seed(1)
images = torch.rand(40, 1, 12, 12)
labels = torch.randint(0, 10, (40,))
loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
model = Net()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 3):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        print(epoch, batch_idx, round(loss.item(), 3))
    model.eval()
    with torch.no_grad():
        out = model(images)
        test_loss = F.nll_loss(out, labels, reduction="sum").item() / 40
        correct = out.argmax(dim=1).eq(labels).sum().item()
    print(round(test_loss, 3), correct)
    scheduler.step()
''')

seeded("qa_seeded_vae_example", r'''
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 12)
        self.fc21 = nn.Linear(12, 2)
        self.fc22 = nn.Linear(12, 2)
        self.fc3 = nn.Linear(2, 12)
        self.fc4 = nn.Linear(12, 16)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std
    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD
torch.manual_seed(1)
data = torch.bernoulli(torch.full((24, 16), 0.3))
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    optimizer.zero_grad()
    recon, mu, logvar = model(data)
    loss = loss_function(recon, data, mu, logvar)
    loss.backward()
    optimizer.step()
    print(epoch, round(loss.item() / len(data), 3))
with torch.no_grad():
    sample = model.decode(torch.randn(2, 2))
show(sample[:, :6], d=3)
''')

seeded("qa_seeded_super_resolution_init", r'''
import torch.nn.init as init
class Net(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()
    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        return self.pixel_shuffle(self.conv3(x))
    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv3.weight)
torch.manual_seed(123)
model = Net(2)
x = torch.rand(2, 1, 6, 6)
target = torch.rand(2, 1, 12, 12)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(x), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
show(model.conv3.weight[0, 0], torch.rand(2))
''')

seeded("qa_seeded_transformer_lm_tutorial", r'''
import math
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=50):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)
    def forward(self, x):
        return self.dropout(x + self.pe[:x.size(0)])
class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)
    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        return self.linear(self.transformer_encoder(src, src_mask))
torch.manual_seed(0)
ntokens, bptt = 25, 6
model = TransformerModel(ntokens, 16, 2, 32, 2, 0.2)
data = torch.randint(0, ntokens, (31, 3))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
model.train()
for batch, i in enumerate(range(0, data.size(0) - 1, bptt)):
    seq_len = min(bptt, len(data) - 1 - i)
    src, targets = data[i:i + seq_len], data[i + 1:i + 1 + seq_len].reshape(-1)
    mask = nn.Transformer.generate_square_subsequent_mask(seq_len)
    output = model(src, mask)
    loss = criterion(output.view(-1, ntokens), targets)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(batch, round(loss.item(), 3), round(math.exp(loss.item()), 2))
scheduler.step()
print(scheduler.get_last_lr())
''')
