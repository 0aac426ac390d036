"""Built-in formulations: one module per puzzle x approach, each class registered with
``@formulation``. Modules whose name starts with ``_`` are shared helpers, not plugins."""
