# log: the kernel's range checks (prefix length) and nft's own refusals
nft add table ip t
nft add chain ip t c '{ type filter hook input priority 0; }'
nft add rule ip t c log prefix '"00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"'
nft add rule ip t c log prefix '"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"'
nft add rule ip t c log group 1 level warn
nft add rule ip t c log group 1 flags all
nft add rule ip t c log level 9
nft add rule ip t c log flags bogus
