"""The web side of the app: the loop's adapter for VWA tasks (``env.WebTaskEnv``), web settings
(site addresses, judge models), scoring wiring, task loading, and the Qt-free logic that turns a
person's input into canonical web actions (``human_input``)."""
