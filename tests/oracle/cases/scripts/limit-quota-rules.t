# rules with limit and quota: insert, replace, delete, list by handle
nft add table ip t
nft add chain ip t c '{ type filter hook output priority 0; }'
nft add rule ip t c quota 100 mbytes
nft add rule ip t c limit rate 5/second burst 10 packets accept
nft insert rule ip t c position 2 quota over 1 mbytes used 512 kbytes drop
nft replace rule ip t c handle 3 limit rate over 1 mbytes/second drop
nft -a list ruleset
nft delete rule ip t c handle 2
nft --debug=netlink list chain ip t c
nft -j list ruleset
nft flush chain ip t c
nft list ruleset
