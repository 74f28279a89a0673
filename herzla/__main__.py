"""``python -m herzla``: the same as the ``herzla`` command."""

from herzla.cli import main

if __name__ == "__main__":
    main()
