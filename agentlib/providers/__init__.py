"""What a real endpoint needs: settings and `.env` (settings.py), the openai client with its
guards (http.py), the plain sentences for what goes wrong (errors.py), and the price table (pricing.py).

RealModel in ../models.py is the only lesson code that uses them. config.py is settings.py's former name.
"""
