# ruleset written as flat add/insert/create commands instead of blocks
nft -c -f @FILE
nft -f @FILE
