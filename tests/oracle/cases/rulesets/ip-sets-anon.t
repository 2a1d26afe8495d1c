# anonymous sets inline in rules, negated, with ranges and prefixes
nft -c -f @FILE
nft -f @FILE
