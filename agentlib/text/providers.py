"""Learner-facing text of agentlib/providers, the pricing and the command line (filled by the providers' move)."""

TEXT = {}
