# synproxy objects and inline statements
nft -c -f @FILE
nft -f @FILE
