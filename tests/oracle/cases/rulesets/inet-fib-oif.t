# fib route lookups (oif, oifname, exists/missing) in ip, ip6 and inet tables
nft -c -f @FILE
nft -f @FILE
