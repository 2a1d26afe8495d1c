# a ruleset with a flowtable: refused as a whole on this kernel (no NF_FLOW_TABLE)
nft -f @FILE
nft list ruleset
nft list flowtables
