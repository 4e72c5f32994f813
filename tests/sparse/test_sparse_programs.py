"""Ordinary PyTorch programs using sparse tensors (GCN layers, sparse embeddings with their
optimizers, sparse attention masks, checkpoints): identical stdout under torch and
mindtorch, one subprocess per library.  Runner: `python test_sparse_programs.py
torch|mindtorch [-v] [name...]`."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INTEGRATION = os.path.join(os.path.dirname(HERE), "integration")
if INTEGRATION not in sys.path:
    sys.path.insert(0, INTEGRATION)

from programs_registry import PROGRAMS, program, sections

HEAD = r'''
import warnings
warnings.filterwarnings("ignore")
import torch
import torch.nn as nn
import torch.nn.functional as F
def show(*ts, d=4):
    print(*[(t.to_dense() if t.layout != torch.strided else t).detach().double()
             .round(decimals=d) + 0.0 if isinstance(t, torch.Tensor)
            else round(t, d) if isinstance(t, float) else t for t in ts])
'''
_before = set(PROGRAMS)


def sparse_program(name, text):
    program(name, HEAD + text)


sparse_program("sparse_gcn_training", r'''
torch.manual_seed(0)
N = 8
edges = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6, 7, 2], [1, 0, 2, 1, 4, 3, 6, 5, 0, 7]])
adj = torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (N, N))
adj = (adj + torch.eye(N).to_sparse()).coalesce()
deg = torch.sparse.sum(adj, dim=1).to_dense()
dinv = deg.pow(-0.5)
row, col = adj.indices()
A = torch.sparse_coo_tensor(adj.indices(), adj.values() * dinv[row] * dinv[col], adj.shape)
print(A.is_sparse, A.layout, A.shape, A._nnz(), A.is_coalesced())

class GCN(nn.Module):
    def __init__(self, i, h, o):
        super().__init__()
        self.l1, self.l2 = nn.Linear(i, h), nn.Linear(h, o)
    def forward(self, x, a):
        x = F.relu(torch.sparse.mm(a, self.l1(x)))
        return a @ self.l2(x)

x = torch.randn(N, 5)
y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
model = GCN(5, 16, 3)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model(x, A), y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        show(loss)
show(model.l1.weight.grad.norm(), model(x, A).argmax(1))
csr = A.to_sparse_csr()
show(torch.mm(csr, x), (csr @ x).sum())
''')

sparse_program("sparse_embedding_optimizers", r'''
for name, kw in (("SGD", {"momentum": 0.9}), ("SparseAdam", {}), ("Adagrad", {})):
    torch.manual_seed(0)
    emb = nn.Embedding(10, 4, sparse=True)
    bag = nn.EmbeddingBag(10, 4, mode="mean", sparse=True)
    opt = getattr(torch.optim, name)(list(emb.parameters()) + list(bag.parameters()), lr=0.1,
                                     **kw)
    for step in range(4):
        idx = torch.randint(0, 10, (3, 2))
        opt.zero_grad()
        loss = (emb(idx).sum(1) - bag(idx)).pow(2).sum()
        loss.backward()
        if step == 0:
            print(name, emb.weight.grad.layout, emb.weight.grad.is_coalesced(),
                  emb.weight.grad._nnz(), bag.weight.grad._nnz())
        opt.step()
    show(loss, emb.weight.sum(), bag.weight.sum())
emb = nn.Embedding(10, 4, sparse=True)
emb(torch.tensor([1, 2])).sum().backward()
try:
    torch.optim.Adam(emb.parameters()).step()
except RuntimeError as e:
    print("Adam:", e)
''')

sparse_program("sparse_attention_mask_and_softmax", r'''
torch.manual_seed(0)
i = torch.tensor([[0, 0, 1, 2, 2, 3], [0, 2, 1, 0, 3, 3]])
scores = torch.randn(6, requires_grad=True)
s = torch.sparse_coo_tensor(i, scores, (4, 4))
p = torch.sparse.softmax(s, dim=1)
show(p.to_dense())
(p.to_dense() * torch.arange(16.0).reshape(4, 4)).sum().backward()
show(scores.grad)
mask = torch.sparse_coo_tensor(i, torch.ones(6), (4, 4)).to_dense().bool()
att = torch.randn(4, 4).masked_fill(~mask, float("-inf")).softmax(-1)
show(att)
''')

sparse_program("sparse_checkpoint_and_repr", r'''
import io
s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
print(s)
print(s.coalesce().t())
print(s.to_dense().to_sparse_csr())
buf = io.BytesIO()
torch.save({"adj": s, "w": torch.ones(2)}, buf)
buf.seek(0)
back = torch.load(buf)
print(back["adj"].layout, back["adj"].is_coalesced(), back["adj"].to_dense().tolist())
for f in (lambda: s.exp(), lambda: s + 1, lambda: s.view(6), lambda: s.reshape(6)):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).split(".")[0])
''')

SPARSE_PROGRAMS = [n for n in PROGRAMS if n not in _before]

if __name__ == "__main__":
    from test_programs_ml import _run
    args = [a for a in sys.argv[2:] if a != "-v"]
    _run(sys.argv[1], args or SPARSE_PROGRAMS, "-v" in sys.argv)
    sys.exit(0)

import pytest


@pytest.fixture(scope="module")
def outputs():
    return sections(__file__, "torch"), sections(__file__, "mindtorch")


@pytest.mark.parametrize("name", SPARSE_PROGRAMS)
def test_sparse_program(outputs, name):
    expected, got = outputs[0][name], outputs[1][name]
    assert "!! " not in expected, expected
    assert got == expected
