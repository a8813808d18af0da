"""Play surfaces as plugins: the widgets a person plays a kind's tasks on (see base.py)."""
