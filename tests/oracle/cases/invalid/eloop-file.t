# loop created inside a single file is refused as a whole
nft -f @FILE
nft list ruleset
