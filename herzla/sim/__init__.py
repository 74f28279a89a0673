"""The Monte Carlo simulator: numpy batch engine, policies, statistics and the runner."""
