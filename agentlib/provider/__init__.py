"""The provider's armour behind RealModel: what no notebook shows and no student writes.

In reading order: settings.py (endpoint, model, key: arguments, environment, .env),
http.py (the openai client, every attempt bounded in time and bytes), errors.py
(ModelError: every failure as one sentence that names the fix) and keys.py (no part
of a key in any text). Only http.py imports the openai SDK, and only when a real
model is made.
"""
