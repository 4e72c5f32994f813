"""python -m mindtorch.backends: print the backend plugin table."""
import mindtorch
from mindtorch.backends import format_table

print(format_table(mindtorch.backends.list()))
