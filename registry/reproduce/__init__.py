"""Re-running the experiment behind a result: the recipe resolved into settings, each run, what
it gave filed as a reproduction record, and the run's log folder.
"""
