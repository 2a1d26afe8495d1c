# filter base chains on every ip hook, numeric priorities, both policies
nft -c -f @FILE
nft -f @FILE
