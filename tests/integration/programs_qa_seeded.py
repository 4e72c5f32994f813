"""QA programs that rely on the seed, as tutorials do (run by test_programs_qa_extra.py):
`torch.manual_seed(0)`, models initialised and data drawn by the generator, training with
dropout, shuffled loaders, splits and samplers, distributions, explicit generators and
saved generator states.  A seed gives PyTorch's random numbers, so these print the values
themselves; float32 arithmetic may differ in the last bits, so `show` rounds to 4 decimals."""
from programs_registry import program

HEAD = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
def show(*ts, d=4):
    print(*[t.detach().double().round(decimals=d) + 0.0 if isinstance(t, torch.Tensor)
            else round(t, d) if isinstance(t, float) else t for t in ts])
'''


def seeded(name, text):
    program(name, HEAD + text)


seeded("qa_seeded_linear_regression", r'''
torch.manual_seed(0)
X = torch.randn(64, 3)
true_w = torch.tensor([[2.0], [-3.4], [1.5]])
y = X @ true_w + 4.2 + 0.01 * torch.randn(64, 1)
model = nn.Linear(3, 1)
show(model.weight, model.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(30):
    loss = F.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        show(f"epoch {epoch}", loss)
show(model.weight, model.bias)
show(torch.rand(3))
''')

seeded("qa_seeded_mlp_dropout_adam", r'''
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.25), nn.Linear(32, 16), nn.GELU(),
                      nn.Dropout(0.1), nn.Linear(16, 4))
x = torch.randn(20, 10)
y = torch.randint(0, 4, (20,))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(8):
    model.train()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(step, loss)
model.eval()
with torch.no_grad():
    pred = model(x).argmax(1)
print(pred, (pred == y).float().mean().item())
show(model[0].weight[:2, :4], torch.randn(2))
''')

seeded("qa_seeded_dataloader_training", r'''
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
X = torch.randn(50, 4)
y = (X.sum(1) > 0).long()
loader = DataLoader(TensorDataset(X, y, torch.arange(50)), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for epoch in range(3):
    total = 0.0
    for xb, yb, idx in loader:
        if epoch == 0:
            print(idx.tolist())
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    show(epoch, total / 50)
g = torch.Generator().manual_seed(123)
print([b[2].tolist() for b in DataLoader(TensorDataset(X, y, torch.arange(50)), batch_size=20,
                                         shuffle=True, generator=g, drop_last=True)])
show(torch.rand(2))
''')

seeded("qa_seeded_random_split", r'''
from torch.utils.data import random_split, DataLoader, TensorDataset, Subset
torch.manual_seed(0)
data = TensorDataset(torch.arange(20.).reshape(10, 2), torch.arange(10))
train, val = random_split(data, [7, 3])
print(train.indices, val.indices, type(train).__name__)
a, b, c = random_split(range(11), [0.5, 0.3, 0.2])
print(list(a), list(b), list(c))
p, q = random_split(range(10), [0.5, 0.5], generator=torch.Generator().manual_seed(42))
print(list(p), list(q))
for xb, yb in DataLoader(train, batch_size=3, shuffle=True):
    print(xb.tolist(), yb.tolist())
idx = torch.randperm(10)
print(idx.tolist(), list(Subset(range(100, 110), idx[:4].tolist())))
print(torch.randint(0, 100, (4,)).tolist())
''')

seeded("qa_seeded_samplers", r'''
from torch.utils.data import (WeightedRandomSampler, RandomSampler, SubsetRandomSampler, BatchSampler,
                              DataLoader, TensorDataset)
torch.manual_seed(0)
labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 0])
counts = torch.bincount(labels)
weights = 1.0 / counts[labels].double()
sampler = WeightedRandomSampler(weights, num_samples=12, replacement=True)
picked = list(sampler)
print(picked, torch.bincount(labels[picked], minlength=3).tolist())
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 0.2], 3, replacement=False)))
print(list(RandomSampler(range(6), replacement=True, num_samples=15)))
print(list(RandomSampler(range(6), num_samples=9)))
print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(7))))
print(list(SubsetRandomSampler([10, 20, 30, 40])))
print(list(BatchSampler(RandomSampler(range(7)), batch_size=3, drop_last=False)))
ds = TensorDataset(torch.arange(10))
loader = DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(weights, 8))
print([b[0].tolist() for b in loader], [b[0].tolist() for b in loader])
show(torch.rand(2))
''')

seeded("qa_seeded_distributions", r'''
from torch.distributions import (Normal, Categorical, Bernoulli, Uniform, Exponential, MultivariateNormal,
                                 Independent, OneHotCategorical, Poisson, Cauchy, Gumbel, kl_divergence)
torch.manual_seed(0)
mu = torch.zeros(3, requires_grad=True)
sigma = torch.ones(3, requires_grad=True)
z = Normal(mu, sigma).rsample((4,))
show(z)
(z ** 2).mean().backward()
show(mu.grad, sigma.grad)
show(Normal(0.5, 2.0).sample((5,)))
c = Categorical(logits=torch.tensor([0.1, 1.0, -0.5, 2.0]))
s = c.sample((10,))
print(s.tolist(), c.log_prob(s).sum().item() < 0)
print(Categorical(probs=torch.tensor([[0.2, 0.8], [0.6, 0.4]])).sample((3,)).tolist())
print(Bernoulli(probs=torch.tensor([0.1, 0.5, 0.9])).sample((4,)).tolist())
print(Bernoulli(logits=torch.tensor(0.3)).sample((6,)).tolist())
low = torch.tensor([0.0, -1.0], requires_grad=True)
u = Uniform(low, torch.tensor([1.0, 3.0])).rsample((3,))
show(u)
u.sum().backward()
show(low.grad)
show(Exponential(torch.tensor([0.5, 2.0])).rsample((2,)), Cauchy(0.0, 1.0).sample((3,)),
     Gumbel(0.0, 1.0).sample((3,)))
mvn = MultivariateNormal(torch.tensor([1.0, -1.0]), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
show(mvn.sample((3,)), mvn.rsample())
show(Independent(Normal(torch.zeros(2, 2), torch.ones(2, 2)), 1).sample())
print(OneHotCategorical(probs=torch.tensor([0.3, 0.3, 0.4])).sample((3,)).tolist())
print(Poisson(torch.tensor([1.0, 4.0, 15.0])).sample((2,)).tolist())
show(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)), torch.rand(2))
''')

seeded("qa_seeded_gumbel_softmax", r'''
torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.7)
show(soft, soft.sum(-1))
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(hard.tolist())
(hard * torch.arange(5.0)).sum().backward()
show(logits.grad)
show(F.gumbel_softmax(logits.detach().double(), tau=2.0, dim=0))
show(torch.rand(2))
''')

seeded("qa_seeded_init_schemes", r'''
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.rnn = nn.GRU(4, 6)
        self.fc = nn.Linear(6, 3)
        self.apply(self._init)
    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            nn.init.constant_(m.bias, 0.1)
        elif isinstance(m, nn.GRU):
            for name, p in m.named_parameters():
                if "weight_hh" in name:
                    nn.init.orthogonal_(p)
                elif "weight_ih" in name:
                    nn.init.xavier_normal_(p)
                else:
                    nn.init.zeros_(p)
net = Net()
show(net.fc.weight, net.conv.weight[0, 0], net.conv.bias)
W = net.rnn.weight_hh_l0
print(W.shape, torch.allclose(W[:6] @ W[:6].T, torch.eye(6), atol=1e-5))
show(W.sum(), W.abs().mean())
w = torch.empty(5, 7)
show(nn.init.trunc_normal_(w, std=0.02) * 100)
show(nn.init.sparse_(torch.empty(6, 4), sparsity=0.5))
show(nn.init.uniform_(torch.empty(3), -0.1, 0.1), nn.init.normal_(torch.empty(3), 0.0, 0.5))
show(nn.init.kaiming_uniform_(torch.empty(2, 3, 2), a=5 ** 0.5))
show(torch.randn(2))
''')

seeded("qa_seeded_generators", r'''
torch.manual_seed(0)
g = torch.Generator().manual_seed(2024)
a = torch.randn(3, generator=g)
state = g.get_state()
b = torch.rand(4, generator=g)
g.set_state(state)
print(torch.equal(b, torch.rand(4, generator=g)), g.initial_seed())
show(a, b)
print(torch.randint(0, 10, (6,), generator=g).tolist(), torch.randperm(8, generator=g).tolist())
print(torch.multinomial(torch.tensor([1.0, 2.0, 3.0, 4.0]), 3, generator=g).tolist())
show(torch.normal(0.0, 1.0, (3,), generator=g), torch.empty(3).uniform_(-1, 1, generator=g))
print(torch.bernoulli(torch.full((6,), 0.5), generator=g).tolist())
x = torch.zeros(2, 3)
print(torch.randint_like(x, 10).tolist(), torch.randint_like(x, 3, 8).dtype)
print(torch.randint_like(torch.zeros(4, dtype=torch.int32), 100).tolist())
show(torch.rand_like(x), torch.randn_like(x, dtype=torch.float64))
g2 = torch.Generator()
g2.manual_seed(2024)
print(torch.equal(torch.randn(3, generator=g2), a))
show(torch.rand(3))
''')

seeded("qa_seeded_rng_state", r'''
torch.manual_seed(0)
print(torch.initial_seed())
state = torch.get_rng_state()
print(state.dtype, state.shape)
x1 = torch.randn(5)
torch.set_rng_state(state)
print(torch.equal(torch.randn(5), x1))
torch.randn(1)  # a single normal leaves its pair's second value for the next call
s2 = torch.random.get_rng_state()
y1 = torch.randn(1)
torch.random.set_rng_state(s2)
print(torch.equal(torch.randn(1), y1))
with torch.random.fork_rng():
    torch.manual_seed(99)
    inner = torch.rand(2)
after = torch.rand(2)
torch.manual_seed(99)
print(torch.equal(torch.rand(2), inner))
show(inner, after)
torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
print(torch.equal(torch.rand(3), a), torch.random.initial_seed())
torch.random.manual_seed(12345678901234)
show(torch.rand(2), torch.randn(2, dtype=torch.float64))
print(torch.randint(-5, 5, (8,)).tolist())
''')

seeded("qa_seeded_cnn_training", r'''
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
    nn.Dropout2d(0.2), nn.Conv2d(4, 8, 3), nn.ReLU(), nn.Flatten(), nn.Dropout(0.3), nn.Linear(8 * 2 * 2, 3))
images = torch.randn(8, 1, 8, 8)
labels = torch.randint(0, 3, (8,))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for step in range(5):
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(step, loss)
show(model[1].running_mean, model[1].running_var)
model.eval()
show(model(images[:2]))
''')

seeded("qa_seeded_lstm_classifier", r'''
torch.manual_seed(0)
class Classifier(nn.Module):
    def __init__(self, vocab=20, emb=6, hidden=8, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True, dropout=0.2, bidirectional=True)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(2 * hidden, classes)
    def forward(self, x):
        out, (h, c) = self.lstm(self.emb(x))
        return self.fc(self.drop(out[:, -1]))
model = Classifier()
tokens = torch.randint(1, 20, (5, 7))
target = torch.randint(0, 3, (5,))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    loss = F.cross_entropy(model(tokens), target)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    show(step, loss)
model.eval()
show(model(tokens[:2]), model.emb.weight[0])
''')

seeded("qa_seeded_transformer", r'''
torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, dropout=0.1, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(16, 2)
x = torch.randn(3, 5, 16)
y = torch.randint(0, 2, (3,))
params = list(encoder.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=1e-3)
for step in range(3):
    loss = F.cross_entropy(head(encoder(x).mean(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(step, loss, d=3)
encoder.eval()
with torch.no_grad():
    show(head(encoder(x).mean(1)), d=3)
mha = nn.MultiheadAttention(8, 2, dropout=0.5)
q = torch.randn(4, 1, 8)
out, w = mha(q, q, q)
show(w.sum(-1), d=3)
''')

seeded("qa_seeded_vae", r'''
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 6))
    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar
vae = VAE()
data = torch.rand(16, 6)
opt = torch.optim.Adam(vae.parameters(), lr=5e-3)
for step in range(6):
    recon, mu, logvar = vae(data)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = F.mse_loss(recon, data, reduction="sum") + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(step, loss, kl)
with torch.no_grad():
    show(vae.dec(torch.randn(2, 2)))
''')

seeded("qa_seeded_gan_step", r'''
torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Dropout(0.3), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
for step in range(4):
    fake = G(torch.randn(16, 4))
    d_loss = (F.binary_cross_entropy_with_logits(D(real), torch.ones(16, 1))
              + F.binary_cross_entropy_with_logits(D(fake.detach()), torch.zeros(16, 1)))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.binary_cross_entropy_with_logits(D(fake), torch.ones(16, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    show(step, d_loss, g_loss)
''')

seeded("qa_seeded_policy_gradient", r'''
from torch.distributions import Categorical
torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
for episode in range(4):
    states = torch.randn(6, 4)
    dist = Categorical(logits=policy(states))
    actions = dist.sample()
    rewards = (actions == 1).float() - 0.1 * torch.rand(6)
    returns = torch.flip(torch.cumsum(torch.flip(rewards, [0]), 0), [0])
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(dist.log_prob(actions) * returns).sum() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, actions.tolist(), round(loss.item(), 4))
eps = 0.2
explore = torch.rand(10) < eps
print(explore.tolist(), torch.randint(0, 3, (10,)).tolist())
''')

seeded("qa_seeded_bootstrap_and_augment", r'''
torch.manual_seed(0)
values = torch.randn(30)
means = torch.stack([values[torch.randint(0, 30, (30,))].mean() for _ in range(5)])
show(values.mean(), means)
w = torch.rand(30)
idx = torch.multinomial(w, 10, replacement=True)
print(idx.tolist(), torch.multinomial(w, 5).tolist())
perm = torch.randperm(30)
train_idx, test_idx = perm[:24], perm[24:]
print(test_idx.tolist())
mask = torch.bernoulli(torch.full((3, 4), 0.3))
print(mask.tolist())
imgs = torch.arange(2 * 6 * 6, dtype=torch.float32).reshape(2, 1, 6, 6)
i, j = torch.randint(0, 3, (2,)).tolist()
crop = imgs[:, :, i:i + 4, j:j + 4]
if torch.rand(1).item() < 0.5:
    crop = torch.flip(crop, dims=[3])
noisy = crop + 0.1 * torch.randn_like(crop)
show(crop[0, 0, 0], noisy.sum())
print(torch.empty(5).random_(0, 10).tolist(), torch.empty(4, dtype=torch.int64).random_(100).tolist())
show(torch.empty(3).normal_(2.0, 0.5), torch.empty(3).exponential_(2.0), torch.normal(torch.zeros(3), torch.ones(3)))
''')

seeded("qa_seeded_char_lm_generate", r'''
torch.manual_seed(1337)
text = "hello seeded world, hello torch"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
block, batch = 8, 4
class Bigram(nn.Module):
    def __init__(self, vocab, d=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block, d)
        self.attn = nn.MultiheadAttention(d, 2, dropout=0.1, batch_first=True)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.apply(self._init)
    def _init(self, m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
    def forward(self, idx):
        T = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(T))
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        x = x + self.attn(x, x, x, attn_mask=mask, need_weights=False)[0]
        return self.head(self.ln(x))
model = Bigram(len(chars))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(5):
    ix = torch.randint(len(data) - block, (batch,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + block + 1] for i in ix])
    loss = F.cross_entropy(model(x).view(-1, len(chars)), y.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    print(step, ix.tolist(), round(loss.item(), 3))
model.eval()
idx = torch.zeros((1, 1), dtype=torch.long)
with torch.no_grad():
    for _ in range(12):
        logits = model(idx[:, -block:])[:, -1, :] / 0.8
        v, _ = torch.topk(logits, 5)
        logits[logits < v[:, [-1]]] = -float("inf")
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, nxt), dim=1)
print("".join(chars[i] for i in idx[0].tolist()))
''')

seeded("qa_seeded_dcgan_weights_init", r'''
torch.manual_seed(999)
def weights_init(m):
    name = m.__class__.__name__
    if name.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif name.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
netG = nn.Sequential(nn.ConvTranspose2d(8, 6, 4, 1, 0, bias=False), nn.BatchNorm2d(6), nn.ReLU(True),
                     nn.ConvTranspose2d(6, 3, 4, 2, 1, bias=False), nn.Tanh())
netG.apply(weights_init)
show(netG[0].weight[0, 0], netG[1].weight, netG[1].bias)
fixed_noise = torch.randn(2, 8, 1, 1)
fake = netG(fixed_noise)
print(fake.shape)
show(fake[0, 0, :2], fake.mean(), fake.std())
real_label, fake_label = 1.0, 0.0
label = torch.full((2,), real_label)
noisy_label = label - 0.1 * torch.rand(2)
show(noisy_label)
''')

seeded("qa_seeded_word2vec_negatives", r'''
torch.manual_seed(0)
vocab, dim, k = 30, 8, 5
counts = torch.arange(1.0, vocab + 1).flip(0)
noise = counts ** 0.75
noise = noise / noise.sum()
center = nn.Embedding(vocab, dim)
context = nn.Embedding(vocab, dim)
nn.init.uniform_(center.weight, -0.5 / dim, 0.5 / dim)
nn.init.zeros_(context.weight)
context.weight.data.uniform_(-0.1, 0.1)
opt = torch.optim.Adam(list(center.parameters()) + list(context.parameters()), lr=0.05)
for step in range(4):
    c = torch.randint(0, vocab, (6,))
    pos = torch.randint(0, vocab, (6,))
    neg = torch.multinomial(noise, 6 * k, replacement=True).view(6, k)
    vc = center(c)
    pos_score = F.logsigmoid((vc * context(pos)).sum(-1))
    neg_score = F.logsigmoid(-(context(neg) @ vc.unsqueeze(-1)).squeeze(-1)).sum(-1)
    loss = -(pos_score + neg_score).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, c.tolist(), neg[0].tolist(), round(loss.item(), 4))
''')

seeded("qa_seeded_mlm_masking", r'''
torch.manual_seed(0)
vocab, mask_id = 50, 3
inputs = torch.randint(5, vocab, (3, 10))
labels = inputs.clone()
probability_matrix = torch.full(labels.shape, 0.15)
special = inputs < 8
probability_matrix.masked_fill_(special, value=0.0)
masked = torch.bernoulli(probability_matrix).bool()
labels[~masked] = -100
replaced = torch.bernoulli(torch.full(labels.shape, 0.8)).bool() & masked
inputs[replaced] = mask_id
random_words = torch.bernoulli(torch.full(labels.shape, 0.5)).bool() & masked & ~replaced
inputs[random_words] = torch.randint(vocab, labels.shape, dtype=torch.long)[random_words]
print(inputs.tolist())
print(labels.tolist())
print(int(masked.sum()), int(replaced.sum()), int(random_words.sum()))
''')

seeded("qa_seeded_diffusion_step", r'''
torch.manual_seed(0)
T = 100
betas = torch.linspace(1e-4, 0.02, T)
alphas_bar = torch.cumprod(1 - betas, 0)
net = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x0 = torch.randn(64, 2) * torch.tensor([1.0, 0.3])
for step in range(4):
    t = torch.randint(0, T, (64,))
    eps = torch.randn_like(x0)
    ab = alphas_bar[t].unsqueeze(-1)
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * eps
    pred = net(torch.cat([xt, t.unsqueeze(-1).float() / T], -1))
    loss = F.mse_loss(pred, eps)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, t[:5].tolist(), round(loss.item(), 4))
x = torch.randn(3, 2)
with torch.no_grad():
    for i in reversed(range(0, T, 25)):
        tt = torch.full((3, 1), i / T)
        e = net(torch.cat([x, tt], -1))
        x = (x - betas[i] / (1 - alphas_bar[i]).sqrt() * e) / (1 - betas[i]).sqrt()
        if i > 0:
            x = x + betas[i].sqrt() * torch.randn_like(x)
show(x)
''')

seeded("qa_seeded_mixup_and_stochastic_depth", r'''
from torch.distributions import Beta
torch.manual_seed(0)
x = torch.randn(6, 4)
y = F.one_hot(torch.randint(0, 3, (6,)), 3).float()
lam = Beta(torch.tensor([0.4]), torch.tensor([0.4])).sample()
perm = torch.randperm(6)
xm = lam * x + (1 - lam) * x[perm]
ym = lam * y + (1 - lam) * y[perm]
show(lam, perm, xm[0], ym[:2])
def drop_path(x, p, training=True):
    if p == 0.0 or not training:
        return x
    keep = 1 - p
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
    return x * mask.div_(keep)
show(drop_path(torch.ones(8, 2), 0.25), drop_path(torch.ones(2, 2), 0.5, training=False))
cutmix_lam = torch.distributions.Uniform(0.0, 1.0).sample().item()
print(round(cutmix_lam, 4), torch.randint(0, 32, (2,)).tolist())
''')

seeded("qa_seeded_sobol_search", r'''
from torch.quasirandom import SobolEngine
torch.manual_seed(0)
engine = SobolEngine(dimension=2, scramble=True)
print(engine)
candidates = engine.draw(8)
show(candidates)
lo, hi = torch.tensor([-2.0, -1.0]), torch.tensor([2.0, 3.0])
points = lo + (hi - lo) * candidates
f = (points ** 2).sum(-1)
best = points[f.argmin()]
show(best, f.min())
plain = SobolEngine(3)
print(plain.draw(4).tolist(), plain.fast_forward(4).draw_base2(3).shape)
seeded_engine = SobolEngine(4, scramble=True, seed=11)
show(seeded_engine.draw(3, dtype=torch.float64))
show(torch.rand(2))
''')
