# unusual but valid names: dashes, underscores, upper case, a 127-character chain name
nft -c -f @FILE
nft -f @FILE
