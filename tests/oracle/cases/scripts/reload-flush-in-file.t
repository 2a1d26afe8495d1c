# a file that starts with flush ruleset replaces everything atomically
nft -f @FILE.first
nft -f @FILE
nft -a list ruleset
nft -f @FILE
nft -a list ruleset
