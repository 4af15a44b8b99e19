"""python -m hifsim ...: the same as the `hifsim` command."""
from ._cli import main

main()
