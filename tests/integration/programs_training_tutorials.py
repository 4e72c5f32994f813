"""Programs (see test_programs_ml.py):
the official PyTorch tutorials' programs as written: "What is torch.nn
really?", the polynomial fit, the quickstart."""
from programs_ml_common import tr

tr("tutorial_nn_really", r'''
import math
rng = np.random.RandomState(60)
x_train = torch.tensor(rng.rand(64, 784), dtype=torch.float32)
y_train = torch.tensor(rng.randint(0, 10, 64))
x_valid, y_valid = x_train[:16] * 0.9, y_train[:16]
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max())
weights = torch.tensor(rng.randn(784, 10), dtype=torch.float32) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
bs = 16
preds = model(x_train[0:bs])
print(preds[0, :4], preds.shape)
print(f"{nll(preds, y_train[0:bs]).item():.4f}", accuracy(preds, y_train[0:bs]))
lr = 0.5
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb, yb = x_train[i * bs: i * bs + bs], y_train[i * bs: i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{nll(model(x_train[:bs]), y_train[:bs]).item():.4f}", accuracy(model(x_train[:bs]), y_train[:bs]))
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)
    def forward(self, xb):
        return self.lin(xb)
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 28, 28)
from torch.utils.data import TensorDataset, DataLoader
def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.4f}")
train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=bs)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
for net in [Mnist_Logistic(),
            nn.Sequential(Lambda(preprocess), nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.Conv2d(4, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.Conv2d(4, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))]:
    det(net, seed=61, scale=0.1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    fit(2, net, F.cross_entropy, opt, train_dl, valid_dl)
''')


tr("tutorial_polynomial", r'''
import math, random
x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.float64)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).double()
det(model, seed=70, scale=0.1)
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(150):  # (RMSprop's oscillation amplifies rounding differences after ~200 steps)
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f"{loss.item():.8f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item():.6f} + {linear_layer.weight[:, 0].item():.6f} x + "
      f"{linear_layer.weight[:, 1].item():.6f} x^2 + {linear_layer.weight[:, 2].item():.6f} x^3")
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
a = torch.full((), 0.0, dtype=torch.float64, requires_grad=True)
b = torch.full((), -1.0, dtype=torch.float64, requires_grad=True)
c = torch.full((), 0.1, dtype=torch.float64, requires_grad=True)
d = torch.full((), 0.3, dtype=torch.float64, requires_grad=True)
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for prm in (a, b, c, d):
            prm -= 5e-6 * 10 * prm.grad
            prm.grad = None
r6 = lambda v: round(v.item(), 6) + 0.0  # (a parameter that converges to 0 may print -0)
print(f"{loss.item():.8f}", f"y = {r6(a):.6f} + {r6(b):.6f} * P3({r6(c):.6f} + {r6(d):.6f} x)")
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1, dtype=torch.float64))
        self.b = torch.nn.Parameter(torch.tensor(0.2, dtype=torch.float64))
        self.c = torch.nn.Parameter(torch.tensor(-0.1, dtype=torch.float64))
        self.d = torch.nn.Parameter(torch.tensor(0.05, dtype=torch.float64))
        self.e = torch.nn.Parameter(torch.tensor(0.01, dtype=torch.float64))
    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f"y = {self.a.item():.6f} + {self.b.item():.6f} x + {self.c.item():.6f} x^2 + {self.d.item():.6f} x^3 + {self.e.item():.6f} x^4 ? + {self.e.item():.6f} x^5 ?"
random.seed(0)
net = DynamicNet()
optimizer = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9)
for t in range(100):
    loss = torch.nn.functional.mse_loss(net(x), y, reduction="sum")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"{loss.item():.8f}", net.string())
''')


tr("tutorial_quickstart", r'''
import os, tempfile
from torch.utils.data import DataLoader, Dataset
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
class FakeImages(Dataset):
    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.x = rng.rand(n, 1, 28, 28).astype(np.float32)
        self.y = rng.randint(0, 10, n)
    def __len__(self):
        return len(self.y)
    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])
train_dataloader = DataLoader(FakeImages(96, 0), batch_size=32)
test_dataloader = DataLoader(FakeImages(40, 1), batch_size=32)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
model = det(NeuralNetwork(), seed=80, scale=0.05).to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(2):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")
with tempfile.TemporaryDirectory() as d:
    torch.save(model.state_dict(), os.path.join(d, "model.pth"))
    model = NeuralNetwork().to(device)
    model.load_state_dict(torch.load(os.path.join(d, "model.pth"), weights_only=True))
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
model.eval()
x, y = test_dataloader.dataset[0][0], test_dataloader.dataset[0][1]
with torch.no_grad():
    x = x.to(device)
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
''')
