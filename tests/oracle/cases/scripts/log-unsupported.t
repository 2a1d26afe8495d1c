# log forms the kernel accepts and nfbpfd refuses (EOPNOTSUPP): NFLOG groups
# and audit; the table keeps only the rules that went in
nft add table ip t
nft add chain ip t c '{ type filter hook input priority 0; }'
nft add rule ip t c log group 1
nft add rule ip t c log group 2 snaplen 64 queue-threshold 10 prefix '"nflog"'
nft add rule ip t c log level audit
nft add rule ip t c log flags skuid
nft add rule ip t c log prefix '"ok "'
