# loading the same file twice appends; flush ruleset + reload is idempotent
nft -f @FILE
nft -f @FILE
nft -a list ruleset
nft flush ruleset
nft -f @FILE
nft -a list ruleset
