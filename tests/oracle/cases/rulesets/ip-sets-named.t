# named sets of every basic type, referenced from rules
nft -c -f @FILE
nft -f @FILE
