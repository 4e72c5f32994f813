"""Run the toy backend:

    pip install ./examples/toy_backend && python examples/toy_backend/demo.py
"""
import mindtorch

x = mindtorch.tensor([1.0, 2.0, 3.0]).to("toy")
y = x * 2 + mindtorch.ones(3).to("toy")
print(y.device, y.cpu().tolist())                        # toy:0 [3.0, 5.0, 7.0]
print(mindtorch.ops.toy.scale(x, 0.5).cpu().tolist())    # [0.5, 1.0, 1.5]
print(mindtorch.toy.device_count(), mindtorch.toy.current_device())
try:
    mindtorch.sin(x)
except NotImplementedError as e:
    print("NotImplementedError:", e)
for b in mindtorch.backends.list():
    print(b["name"], b["status"], b["devices"])
