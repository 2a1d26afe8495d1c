# fib and rt expressions
nft -c -f @FILE
nft -f @FILE
