# per-element counters and comments, set comments, set-level counter flag
nft -c -f @FILE
nft -f @FILE
