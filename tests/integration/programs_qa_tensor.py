"""QA programs on tensor-level semantics (run by test_programs_qa_extra.py): printing,
indexing, promotion, reductions, shape ops, creation and math as users write them; their
output must be identical under torch and mindtorch.  XFAIL: the known gaps (strict)."""
from programs_registry import program

# program -> why it still differs under mindtorch
XFAIL = {
}
