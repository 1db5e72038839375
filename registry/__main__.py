"""`python -m registry` runs the command line."""

from registry.cli import main

main()
