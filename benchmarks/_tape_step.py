"""The floor of a Python autograd for bench_training.py's MLP (`--floor`): the leanest
tape that still records a graph and runs it backward (one object and one closure per op,
a topological walk), with the NumPy calls of the hand-written step.  It has none of a
framework's per-op work (argument checks, dtype promotion, devices, dispatch, version
counters, hooks, graph node types), so the gap between it and mindtorch is what that
work costs, and the gap between it and NumPy is what recording and walking a graph
costs in Python."""


class Var:
    __slots__ = ("value", "grad", "backward", "inputs", "requires_grad")

    def __init__(self, value, backward=None, inputs=(), requires_grad=False):
        self.value, self.backward, self.inputs = value, backward, inputs
        self.requires_grad = requires_grad or backward is not None
        self.grad = None


def linear(x, w, b):
    out = x.value @ w.value.T
    out += b.value

    def backward(g):
        return (g @ w.value if x.requires_grad else None, g.T @ x.value, g.sum(0))
    return Var(out, backward, (x, w, b))


def relu(x, np):
    out = np.maximum(x.value, 0)

    def backward(g):
        return (g * (out > 0),)
    return Var(out, backward, (x,))


def cross_entropy(z, y, rows, np):
    shifted = z.value - z.value.max(1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(1, keepdims=True)
    loss = (np.log(total[:, 0]) - shifted[rows, y]).mean()

    def backward(g):
        d = e / total
        d[rows, y] -= 1
        d *= g / len(rows)
        return (d,)
    return Var(np.asarray(loss), backward, (z,))


def run_backward(root, np):
    order, seen = [], set()

    def visit(v):  # (a graph of a few nodes: recursion is the simplest walk)
        if id(v) not in seen:
            seen.add(id(v))
            for u in v.inputs:
                visit(u)
            order.append(v)
    visit(root)
    grads = {id(root): np.ones((), root.value.dtype)}
    for v in reversed(order):
        g = grads.pop(id(v), None)
        if g is None:
            continue
        if v.backward is None:
            v.grad = g if v.grad is None else v.grad + g
            continue
        for u, gu in zip(v.inputs, v.backward(g)):
            if gu is not None and u.requires_grad:
                grads[id(u)] = gu if id(u) not in grads else grads[id(u)] + gu


def tape_step(np, data, batch, lr):
    params, x, y = data(np)
    params = [Var(p, requires_grad=True) for p in params]
    x, rows = Var(x), np.arange(batch)

    def step():
        w1, b1, w2, b2, w3, b3 = params
        h = relu(linear(x, w1, b1), np)
        h = relu(linear(h, w2, b2), np)
        loss = cross_entropy(linear(h, w3, b3), y, rows, np)
        for p in params:
            p.grad = None
        run_backward(loss, np)
        for p in params:
            p.value -= lr * p.grad
        return loss.value
    return step
