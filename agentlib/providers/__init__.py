"""What a real endpoint needs: settings and `.env` (config.py), the plain
sentences for what goes wrong (errors.py), and the price table (pricing.py).

RealModel in ../models.py is the only lesson code that uses them.
"""
