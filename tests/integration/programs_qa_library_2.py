"""QA programs, continued (see programs_qa_library.py): compile/jit/grad-mode decorators,
inference mode, deepcopy and EMA, tensor.new_*, utility edge cases and errors, and tiny
Hugging Face transformers models when transformers is installed."""
from programs_registry import program

program("qa_lib_compile_grad_modes", r'''
import torch, torch.nn as nn
@torch.compile
def f(x): return torch.sin(x) + 1
print(f(torch.tensor([0.0, 1.0])))
@torch.compile(mode="reduce-overhead", fullgraph=False, dynamic=True)
def g(x, y=2): return x * y
print(g(torch.ones(2)), g(torch.ones(2), y=3))
m = torch.compile(nn.Linear(2, 2))
print(type(m).__name__, m(torch.ones(1, 2)).shape, hasattr(m, "_orig_mod"))
print(m._orig_mod.__class__.__name__ if hasattr(m, "_orig_mod") else None)
print(list(k for k, _ in m.state_dict().items()))
lin = nn.Linear(2, 2); lin.compile() if hasattr(lin, "compile") else None; print(lin(torch.ones(2)).shape)
print(torch.compiler.is_compiling(), torch._dynamo.is_compiling() if hasattr(torch, "_dynamo") else None)
@torch.compiler.disable
def h(x): return x + 1
print(h(torch.ones(1)))
print(torch.compile(backend="eager")(lambda x: x * 2)(torch.ones(1)))
def tr(x): return x.relu() + 1
t = torch.jit.trace(tr, torch.randn(3))
print(t(torch.tensor([-1.0, 2.0])))
mt = torch.jit.trace(nn.Sequential(nn.Linear(2, 2), nn.ReLU()), torch.ones(1, 2))
print(mt(torch.zeros(1, 2)).shape)
sm = torch.jit.script(nn.Linear(3, 1)); print(sm(torch.ones(3)).shape)
@torch.jit.ignore
def ig(x): return x
print(ig(1))
@torch.jit.unused
def un(x): return x
print(un(2))
print(torch.jit.is_scripting(), torch.jit.is_tracing())
@torch.no_grad()
def ng(x): return x * 2, torch.is_grad_enabled()
x = torch.ones(2, requires_grad=True)
y, e = ng(x); print(y.requires_grad, e, torch.is_grad_enabled())
@torch.no_grad
def ng2(x): return (x * 2).requires_grad
print(ng2(x))
with torch.no_grad():
    with torch.enable_grad():
        print((x * 2).requires_grad)
    print((x * 2).requires_grad)
@torch.enable_grad()
def eg(x): return (x * 2).requires_grad
with torch.no_grad(): print(eg(x))
with torch.set_grad_enabled(False): print(torch.is_grad_enabled())
torch.set_grad_enabled(True); print(torch.is_grad_enabled())
with torch.inference_mode():
    z = torch.ones(2) * 3
    print(z.is_inference(), torch.is_inference_mode_enabled(), (x * 2).requires_grad, torch.is_grad_enabled())
print(z.is_inference(), torch.ones(1).is_inference(), z.requires_grad)
try:
    w = torch.ones(2, requires_grad=True); (w * z).sum().backward(); print("ok backward", w.grad)
except RuntimeError as err: print("RuntimeError", err)
try:
    z.add_(1)
except RuntimeError as err: print("RuntimeError", err)
try:
    z.requires_grad_(True); print(z.requires_grad)
except RuntimeError as err: print("RuntimeError", err)
try:
    lin = nn.Linear(2, 2)
    with torch.inference_mode(): out = lin(torch.ones(1, 2))
    out.sum().backward()
except RuntimeError as err: print("RuntimeError", err)
with torch.inference_mode(mode=False): print(torch.is_inference_mode_enabled())
@torch.inference_mode()
def im(x): return x * 2
print(im(x).is_inference(), im(x).requires_grad)
print(z.clone().is_inference())
zz = z.clone(); print(torch.ones(2).add(z).is_inference())
with torch.inference_mode():
    with torch.no_grad(): print(torch.is_inference_mode_enabled())
    with torch.inference_mode(False): print(torch.is_inference_mode_enabled(), torch.ones(1).is_inference())
''')

program("qa_lib_ema_deepcopy", r'''
import copy, pickle, torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
ema = copy.deepcopy(m).eval()
for p in ema.parameters(): p.requires_grad_(False)
print(ema[0].weight.requires_grad, m[0].weight.requires_grad, ema[0].weight is m[0].weight, torch.equal(ema[0].weight, m[0].weight))
with torch.no_grad(): 
    for p in m.parameters(): p.add_(0.1)
decay = 0.9
with torch.no_grad():
    for e, s in zip(ema.state_dict().values(), m.state_dict().values()):
        if e.dtype.is_floating_point: e.mul_(decay).add_(s, alpha=1 - decay)
        else: e.copy_(s)
print(ema[0].weight[0])
with torch.no_grad():
    ev = list(ema.parameters()); mv = list(m.parameters())
    torch._foreach_mul_(ev, decay); torch._foreach_add_(ev, mv, alpha=1 - decay)
    print(ev[1])
    torch._foreach_lerp_(ev, mv, 0.5); print(ev[1])
    e2 = [p.clone() for p in mv]
    for a, b in zip(e2, mv): a.lerp_(b, 1 - decay)
print(torch.lerp(torch.zeros(2), torch.ones(2), 0.3), torch.lerp(torch.zeros(2), torch.ones(2), torch.tensor([0.1, 0.9])))
print(torch._foreach_norm([torch.ones(2), torch.ones(3)]), torch._foreach_add([torch.ones(1)], 1.0))
print(torch.linalg.vector_norm(torch.stack(torch._foreach_norm([torch.ones(2), torch.ones(3)])), 2))
b = pickle.dumps(m); m3 = pickle.loads(b); print(type(m3).__name__, torch.equal(m3[0].weight, m[0].weight), m3[0].weight.requires_grad)
t = torch.ones(2, requires_grad=True); t2 = copy.deepcopy(t); print(t2.requires_grad, t2.is_leaf)
u = t * 2
try: copy.deepcopy(u)
except RuntimeError as e: print("RuntimeError", e)
p = nn.Parameter(torch.ones(2)); print(type(copy.deepcopy(p)).__name__, type(copy.copy(p)).__name__)
v = torch.arange(6.).view(2, 3)[:, 1:]; dv = copy.deepcopy(v); print(dv, dv.stride(), dv.is_contiguous())
d = {"a": torch.ones(1), "b": torch.ones(1)}; d["c"] = d["a"]; dd = copy.deepcopy(d); print(dd["c"] is dd["a"])
class WithState(nn.Module):
    def __init__(s): super().__init__(); s.lin = nn.Linear(1, 1); s.cache = {"x": 1}
ws = copy.deepcopy(WithState()); print(ws.cache, ws.lin)
print(pickle.loads(pickle.dumps(torch.float16)), pickle.loads(pickle.dumps(torch.device("cpu"))), pickle.loads(pickle.dumps(torch.Size([2, 3]))))
print(pickle.loads(pickle.dumps(torch.tensor([1, 2], dtype=torch.int16))), pickle.loads(pickle.dumps(torch.ones(2, requires_grad=True))))
print(copy.deepcopy(torch.Generator().manual_seed(3)).initial_seed() if True else None)
''')

program("qa_lib_new_methods", r'''
import torch
a = torch.arange(6, dtype=torch.int32).view(2, 3)
f = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
for t in (a, f):
    print(t.new_zeros((2,)).dtype, t.new_ones(1, 1).shape, t.new_full([1], 3).dtype, t.new_empty(0).dtype, t.new_tensor(1).dtype, t.new_tensor(2.5).dtype, t.new_tensor([True]).dtype, t.new_zeros(()).shape)
    print(t.new_tensor(t).requires_grad if t.dtype.is_floating_point else None, t.new_zeros(2).requires_grad, t.new_full((2,), 1.5).dtype, t.new_ones(torch.Size([2])).shape)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = f.new_tensor(f); print(r.requires_grad, len(w), str(w[0].message)[:60] if w else None)
    r = torch.tensor(f); print(r.requires_grad, len(w))
print(a.type_as(f).dtype, f.type_as(a).dtype, a.to(f).dtype, a.to(f, copy=True).requires_grad, f.to(a).requires_grad)
print(a.float().dtype, a.half().dtype, a.bfloat16().dtype, a.double().dtype, a.long().dtype, a.short().dtype, a.char().dtype, a.byte().dtype, a.bool().dtype, a.cfloat().dtype, a.cdouble().dtype)
print(a.to(torch.float32).contiguous().is_contiguous(), a.t().contiguous().stride(), a.t().is_contiguous())
x4 = torch.randn(2, 3, 4, 5)
cl = x4.to(memory_format=torch.channels_last); print(cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last), x4.contiguous(memory_format=torch.channels_last).stride())
print(torch.empty_like(cl).stride(), torch.zeros_like(cl, memory_format=torch.contiguous_format).stride(), (cl + 1).stride(), cl.clone().stride(), cl.clone(memory_format=torch.contiguous_format).stride())
print(torch.nn.Conv2d(3, 2, 1).to(memory_format=torch.channels_last).weight.stride())
print(a.data_ptr() == a.view(-1).data_ptr(), a.untyped_storage().nbytes(), a[1].storage_offset(), a.is_set_to(a), a.is_shared())
print(a.tolist(), a[0, 0].item(), type(a[0, 0].item()).__name__, type(f[0, 0].item()).__name__, a.numpy().dtype, f.detach().numpy().dtype)
print(a.apply_(lambda v: v * 2), a.map_(torch.ones(2, 3, dtype=torch.int32), lambda p, q: p + q))
print(torch.as_tensor(a) is a, torch.as_tensor(a, dtype=torch.float32).dtype, torch.asarray(a).data_ptr() == a.data_ptr(), torch.asarray([1, 2], dtype=torch.float16))
print(a.clone().fill_(7), a.zero_(), a.new(2).shape, a.new([1, 2]), torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape, torch.LongTensor([1]).dtype, torch.FloatTensor(2).dtype)
print(isinstance(a, torch.Tensor), isinstance(a, torch.IntTensor), isinstance(f, torch.DoubleTensor), isinstance(torch.nn.Parameter(torch.ones(1)), torch.Tensor), torch.is_tensor(torch.nn.Parameter(torch.ones(1))))
print(f.detach().requires_grad, f.detach_() is f if False else None, f.data.requires_grad, f.is_leaf, (f * 2).is_leaf, f.grad_fn, (f * 2).grad_fn.name())
print(f.requires_grad_(False).requires_grad, f.retains_grad, torch.ones(2).requires_grad_().requires_grad)
print(a.sum(dtype=torch.int64).dtype, a.sum().dtype, torch.tensor([True, True]).sum().dtype, a.float().sum(dtype=torch.float64).dtype, a.prod().dtype, torch.tensor([1], dtype=torch.uint8).sum().dtype)
print(a.element_size(), torch.tensor([], dtype=torch.bfloat16).element_size(), torch.ones(2, dtype=torch.complex64).abs().dtype, torch.ones(1, dtype=torch.int8).abs().dtype)
''')

program("qa_lib_inference_mode", r'''
import torch, torch.nn as nn
def tryit(f):
    try: r = f(); print("ok", r)
    except Exception as e: print(type(e).__name__, str(e)[:150])
n = torch.ones(3)
w = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    i = torch.ones(3)
    v = n[1:]                      # view of normal tensor in inference mode
    print(v.is_inference(), n.is_inference(), i[0:1].is_inference())
    n.add_(1); print(n)            # in-place on normal tensor is allowed
    tryit(lambda: w.add_(1))       # in-place on leaf requiring grad
    r = w * 2; print(r.requires_grad, r.is_inference(), r.grad_fn)
    print(torch.is_grad_enabled())
    k = i.view(3, 1); print(k.is_inference())
    e = torch.empty_like(n); print(e.is_inference())
print(v.is_inference())
tryit(lambda: v.add_(1))
tryit(lambda: i.add_(1))
tryit(lambda: (i.resize_(4)[:3], i.shape))  # (the new element is uninitialized memory)
tryit(lambda: (i + 1).is_inference())
tryit(lambda: torch.cat([i, n]).is_inference())
tryit(lambda: i.clone().add_(1)[:3])  # (its 4th element: uninitialized)
tryit(lambda: i.view(1, 3).shape)
tryit(lambda: i[0].item())
tryit(lambda: (i * w).sum().backward())
tryit(lambda: (w * i).requires_grad)
tryit(lambda: torch.mul(w, i.clone()).sum().backward() or w.grad)
tryit(lambda: nn.Parameter(i))
tryit(lambda: nn.Parameter(i.clone()).requires_grad)
lin = nn.Linear(3, 1)
with torch.inference_mode():
    o = lin(torch.ones(1, 3))
print(o.requires_grad, o.is_inference(), o.grad_fn)
tryit(lambda: lin(o.expand(1, 3)).sum().backward())
tryit(lambda: o.detach().is_inference())
tryit(lambda: o.data.is_inference())
tryit(lambda: o.numpy().shape)
tryit(lambda: torch.ones(2).is_inference())
with torch.no_grad():
    q = torch.ones(2); print(q.is_inference())
with torch.inference_mode(True):
    with torch.inference_mode(False):
        x = torch.ones(2, requires_grad=True); y = x * 2; print(y.requires_grad, y.is_inference())
    print(torch.is_inference_mode_enabled())
cls = torch.inference_mode
print(cls.__name__, isinstance(torch.inference_mode(), torch.inference_mode))
@torch.inference_mode(False)
def g(): return torch.is_inference_mode_enabled()
with torch.inference_mode(): print(g())
tryit(lambda: torch.inference_mode()(lambda: 1)())
import io
b = io.BytesIO(); torch.save(i, b); b.seek(0); print(torch.load(b).is_inference())
tryit(lambda: i.requires_grad_())
tryit(lambda: i.requires_grad_(False).requires_grad)
with torch.inference_mode():
    tryit(lambda: i.requires_grad_().requires_grad)
    tryit(lambda: torch.ones(2, requires_grad=True).requires_grad)
''')

program("qa_lib_util_edges", r'''
import torch
def tryit(f):
    try: r = f(); print("ok", r)
    except Exception as e: print(type(e).__name__, str(e).split("\n")[0][:200])
x = torch.arange(7)
tryit(lambda: torch.tensor_split(x, [2, 10]))
tryit(lambda: torch.tensor_split(x, [5, 2]))
tryit(lambda: torch.tensor_split(x, 10))
tryit(lambda: torch.tensor_split(torch.ones(2, 4), 3, dim=1))
tryit(lambda: torch.tensor_split(x, torch.tensor([[1]])))
tryit(lambda: torch.tensor_split(x, torch.tensor([1.0])))
tryit(lambda: torch.split(x, 10))
tryit(lambda: torch.split(torch.ones(0, 3), 2))
tryit(lambda: torch.chunk(torch.ones(0), 2))
tryit(lambda: torch.chunk(torch.arange(6), 4))
tryit(lambda: torch.chunk(torch.arange(6), -1))
tryit(lambda: torch.meshgrid(torch.arange(2), torch.arange(3))[0].shape)
tryit(lambda: torch.meshgrid(torch.tensor(1), torch.arange(2), indexing="xy"))
tryit(lambda: torch.meshgrid())
tryit(lambda: torch.cdist(torch.ones(2, 3), torch.zeros(4, 3), compute_mode="use_mm_for_euclid_dist").shape)
tryit(lambda: torch.cdist(torch.ones(3), torch.zeros(4, 3)))
tryit(lambda: torch.cdist(torch.ones(2, 3, dtype=torch.int64), torch.zeros(4, 3, dtype=torch.int64)))
tryit(lambda: torch.cdist(torch.ones(2, 1, 3), torch.zeros(5, 4, 3)).shape)
tryit(lambda: torch.cdist(torch.ones(2, 3), torch.zeros(4, 3), p=0))
tryit(lambda: torch.cdist(torch.ones(2, 3), torch.zeros(4, 3), p=-1))
tryit(lambda: torch.einsum("...ij,j->...i", torch.ones(2, 3, 4), torch.ones(4)).shape)
tryit(lambda: torch.einsum("...i,...i->...", torch.ones(2, 1, 3), torch.ones(4, 3)).shape)
tryit(lambda: torch.einsum("i...,i...->...", torch.ones(3, 2), torch.ones(3, 2)))
tryit(lambda: torch.einsum("ij->j", torch.ones(2, 3, dtype=torch.int32)))
tryit(lambda: torch.einsum("i,i", torch.ones(2), torch.ones(3)))
tryit(lambda: torch.einsum("ij,jk", torch.ones(2, 3)))
tryit(lambda: torch.einsum("ii->i", torch.arange(9.).view(3, 3)))
tryit(lambda: torch.einsum("bhqd,bhkd->bhqk", torch.ones(1, 2, 3, 4), torch.ones(1, 2, 5, 4)).shape)
tryit(lambda: torch.einsum("i,j,k->ijk", torch.ones(2), torch.ones(3), torch.ones(1)).shape)
tryit(lambda: torch.nonzero(torch.tensor(0)))
tryit(lambda: torch.nonzero(torch.tensor(3), as_tuple=True))
tryit(lambda: torch.nonzero(torch.zeros(2, 0)))
tryit(lambda: torch.where(torch.tensor([[True, False]])))
tryit(lambda: torch.where(torch.tensor([1, 0]) > 0, 1, 2.5))
tryit(lambda: torch.where(torch.tensor([True]), torch.tensor([1], dtype=torch.int8), 300))
tryit(lambda: torch.where(torch.tensor([True]), torch.tensor([1.], dtype=torch.float16), torch.tensor(2.)))
tryit(lambda: torch.where(torch.tensor([1, 0]), 1, 0))
tryit(lambda: torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64)))
tryit(lambda: torch.allclose(torch.ones(2), torch.ones(3)))
tryit(lambda: torch.allclose(torch.ones(2), torch.ones(1)))
tryit(lambda: torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), rtol=0.5, atol=0))
tryit(lambda: torch.isclose(torch.tensor([True]), torch.tensor([True])))
tryit(lambda: torch.isclose(torch.ones(1), torch.ones(1), rtol=-1))
tryit(lambda: torch.equal(torch.ones(2), torch.ones(2, dtype=torch.int64)))
tryit(lambda: torch.equal(torch.tensor([float("nan")]), torch.tensor([float("nan")])))
tryit(lambda: torch.equal(torch.ones(2, 3).t(), torch.ones(3, 2)))
tryit(lambda: torch.equal(torch.ones(2), torch.ones(1)))
tryit(lambda: torch.nn.functional.one_hot(torch.tensor([[0, 2]]), -1))
tryit(lambda: torch.nn.functional.one_hot(torch.tensor([0, 2], dtype=torch.int32), 3))
tryit(lambda: torch.nn.functional.one_hot(torch.tensor(2), 4))
tryit(lambda: torch.nn.functional.one_hot(torch.empty(0, dtype=torch.long)))
tryit(lambda: torch.combinations(torch.tensor([1, 2, 3]), r=5))
tryit(lambda: torch.combinations(torch.tensor([1, 2]), r=-1))
tryit(lambda: torch.cartesian_prod())
tryit(lambda: torch.cartesian_prod(torch.tensor([1.]), torch.tensor([2, 3])))
tryit(lambda: torch.block_diag(torch.tensor(5), torch.ones(2, dtype=torch.bool)))
tryit(lambda: torch.block_diag(torch.ones(0, 2), torch.ones(2, 0)))
tryit(lambda: torch.tril_indices(0, 3))
tryit(lambda: torch.tril_indices(3, 3, 5))
tryit(lambda: torch.triu_indices(3, 3, -5).shape)
tryit(lambda: torch.tril_indices(-1, 3))
tryit(lambda: torch.diff(torch.arange(5), n=0))
tryit(lambda: torch.diff(torch.arange(5), n=10))
tryit(lambda: torch.diff(torch.arange(5), n=-1))
tryit(lambda: torch.diff(torch.ones(2, 3), prepend=torch.ones(3)))
tryit(lambda: torch.diff(torch.ones(2, 3), dim=0, prepend=torch.ones(1, 3)))
tryit(lambda: torch.roll(torch.arange(4), 1, 0).tolist())
tryit(lambda: torch.roll(torch.tensor(5), 3))
tryit(lambda: torch.roll(torch.empty(0), 2))
tryit(lambda: torch.roll(torch.arange(6).view(2, 3), [1, -1], [1, 1]))
tryit(lambda: torch.flip(torch.tensor(3), [0]))
tryit(lambda: torch.flip(torch.tensor(3), []))
tryit(lambda: torch.rot90(torch.ones(2), 1))
tryit(lambda: torch.rot90(torch.arange(6).view(1, 2, 3), 1, [2, 1]))
tryit(lambda: torch.rot90(torch.arange(4).view(2, 2), 5))
tryit(lambda: torch.kron(torch.tensor(2), torch.tensor([1, 2])))
tryit(lambda: torch.kron(torch.ones(2, 2, dtype=torch.bool), torch.ones(1, 2, dtype=torch.bool)))
tryit(lambda: torch.vander(torch.tensor([1, 2]), N=0))
tryit(lambda: torch.vander(torch.ones(2, 2)))
tryit(lambda: torch.vander(torch.tensor([True, False])))
tryit(lambda: torch.vander(torch.tensor([2, 3], dtype=torch.int8), N=8))
tryit(lambda: torch.atleast_2d(torch.tensor(1.), torch.ones(3)))
tryit(lambda: torch.atleast_3d([torch.ones(2), torch.ones(2, 2)]))
tryit(lambda: torch.unflatten(torch.ones(6), 0, ()))
tryit(lambda: torch.unflatten(torch.ones(6), 0, (2, -1, -1)))
tryit(lambda: torch.flatten(torch.ones(2, 3), 1, 0))
tryit(lambda: torch.unbind(torch.tensor(1)))
tryit(lambda: torch.broadcast_shapes((2, 0), (1,)))
tryit(lambda: torch.broadcast_shapes((-1,), (2,)))
tryit(lambda: torch.broadcast_shapes())
tryit(lambda: torch.broadcast_tensors())
tryit(lambda: torch.broadcast_to(torch.ones(3), (-1,)))
tryit(lambda: torch.broadcast_to(torch.ones(3), (2, -1)))
tryit(lambda: torch.broadcast_to(torch.ones(3), (-1, 3)))
''')

program("qa_lib_transformers_tiny", r'''
import importlib.util
import torch
if importlib.util.find_spec("transformers") is None:
    print("transformers not installed")
else:
    import transformers as T
    T.logging.set_verbosity_error()
    torch.manual_seed(0)
    ids = torch.tensor([[1, 5, 7, 9], [2, 3, 4, 6]])
    am = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]])
    gpt2 = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=50, n_positions=32, n_embd=16, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=0)).eval()
    with torch.no_grad():
        out = gpt2(ids, labels=ids)
    print(round(out.loss.item(), 4), out.logits.shape, gpt2.transformer.wte.weight is gpt2.lm_head.weight)
    print(gpt2.generate(ids[:1], max_new_tokens=5, do_sample=False, pad_token_id=0))
    torch.manual_seed(1)
    print(gpt2.generate(ids, attention_mask=am, max_new_tokens=4, do_sample=True, top_k=10, top_p=0.9, temperature=0.8, pad_token_id=0))
    llama = T.LlamaForCausalLM(T.LlamaConfig(vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)).eval()
    with torch.no_grad():
        o = llama(ids, attention_mask=am, labels=ids)
    print(round(o.loss.item(), 4), o.logits[1, -1, :3].round(decimals=4))
    print(llama.generate(ids[:1], max_new_tokens=3, num_beams=2, do_sample=False, pad_token_id=0))
    bert = T.BertForSequenceClassification(T.BertConfig(vocab_size=30, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32, num_labels=3))
    ob = bert(input_ids=ids, attention_mask=am, labels=torch.tensor([0, 2]))
    ob.loss.backward()
    print(round(ob.loss.item(), 4), bert.classifier.weight.grad.abs().sum() > 0)
''')

program("qa_lib_transformers_pretrained", r'''
import importlib.util, os, tempfile
import torch
if importlib.util.find_spec("transformers") is None:
    print("transformers not installed")
else:
    import transformers as T
    T.logging.set_verbosity_error()
    T.set_seed(0)
    cfg = T.LlamaConfig(vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64, tie_word_embeddings=True)
    m = T.LlamaForCausalLM(cfg)
    print(m.num_parameters(), m.num_parameters(only_trainable=True), m.lm_head.weight is m.model.embed_tokens.weight)
    with tempfile.TemporaryDirectory() as d:
        m.save_pretrained(d)
        print(sorted(os.listdir(d)))
        m2 = T.LlamaForCausalLM.from_pretrained(d)
        print(all(torch.equal(a, b) for a, b in zip(m.state_dict().values(), m2.state_dict().values())), m2.lm_head.weight is m2.model.embed_tokens.weight)
        m3 = T.LlamaForCausalLM.from_pretrained(d, dtype=torch.bfloat16)
        print(m3.dtype, m3.model.layers[0].self_attn.q_proj.weight.dtype)
    m.resize_token_embeddings(45); print(m.get_input_embeddings().weight.shape, m.get_output_embeddings().weight.shape, m.config.vocab_size)
    m.gradient_checkpointing_enable(); m.train()
    ids = torch.tensor([[1, 2, 3, 4]])
    out = m(ids, labels=ids); out.loss.backward(); print(round(out.loss.item(), 4), m.model.layers[0].mlp.up_proj.weight.grad.abs().sum() > 0)
    m.gradient_checkpointing_disable(); m.eval()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    sch = T.get_linear_schedule_with_warmup(opt, 2, 10); lrs = []
    for _ in range(4): opt.step(); sch.step(); lrs.append(round(sch.get_last_lr()[0], 6))
    print(lrs)
    sch2 = T.get_cosine_schedule_with_warmup(opt, 1, 5); print([round(x, 6) for x in sch2.get_last_lr()])
    print(m.get_extended_attention_mask(torch.tensor([[1, 1, 0]]), (1, 3)).shape if hasattr(m, "get_extended_attention_mask") else None)
    with torch.no_grad():
        mb = m.to(torch.bfloat16); print(mb(ids).logits.dtype, mb.generate(ids, max_new_tokens=3, do_sample=False, pad_token_id=0))
    print(m.device, m.dtype)
''')

program("qa_lib_transformers_generate", r'''
import importlib.util
import torch
if importlib.util.find_spec("transformers") is None:
    print("transformers not installed")
else:
    import transformers as T
    T.logging.set_verbosity_error()
    torch.manual_seed(0)
    m = T.LlamaForCausalLM(T.LlamaConfig(vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)).eval()
    ids = torch.tensor([[1, 5, 7, 9], [2, 3, 4, 6]]); am = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]])
    out = m.generate(ids, attention_mask=am, max_new_tokens=3, do_sample=False, output_scores=True, output_logits=True, return_dict_in_generate=True, pad_token_id=0)
    print(out.sequences, len(out.scores), out.scores[0].shape)
    print(m.compute_transition_scores(out.sequences, out.scores, normalize_logits=True).round(decimals=4))
    b = m.generate(ids, attention_mask=am, max_new_tokens=3, num_beams=3, num_return_sequences=2, output_scores=True, return_dict_in_generate=True, pad_token_id=0, length_penalty=0.5)
    print(b.sequences, b.sequences_scores.round(decimals=4))
    print(m.compute_transition_scores(b.sequences, b.scores, b.beam_indices, normalize_logits=False).round(decimals=4))
    print(m.generate(ids, attention_mask=am, max_new_tokens=3, use_cache=False, do_sample=False, pad_token_id=0))
    print(m.generate(ids, attention_mask=am, max_new_tokens=3, cache_implementation="static", do_sample=False, pad_token_id=0))
    torch.manual_seed(3)
    print(m.generate(ids, attention_mask=am, max_new_tokens=4, do_sample=True, temperature=0.7, top_k=5, repetition_penalty=1.3, no_repeat_ngram_size=2, pad_token_id=0))
    print(m.generate(ids, attention_mask=am, max_new_tokens=4, num_beams=2, num_beam_groups=2, diversity_penalty=0.5, pad_token_id=0) if False else "")
    print(m.generate(ids, attention_mask=am, max_new_tokens=3, min_new_tokens=2, eos_token_id=9, bad_words_ids=[[7]], pad_token_id=0))
''')
