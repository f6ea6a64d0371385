"""``python -m lockstep`` runs the command line (the ``lockstep`` script does just this)."""

from .cli import main

if __name__ == "__main__":  # not when multiprocessing re-imports this module in a child
    raise SystemExit(main())
