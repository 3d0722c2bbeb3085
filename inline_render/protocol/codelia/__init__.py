"""codelia's UI protocol (seed 004): its methods and their typed params (``methods``, ``catalog``), the sans-I/O
session (``session``), and the slash commands that talk to the runtime (``commands``, ``slash``)."""
