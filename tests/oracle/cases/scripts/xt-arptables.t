# arptables-nft sequences
arptables-nft -A INPUT -s 10.0.0.1 -j DROP
arptables-nft -A INPUT --opcode Request -j ACCEPT
arptables-nft -A OUTPUT -d 10.0.0.2 -j DROP
arptables-nft -I INPUT -i veth0 -j ACCEPT
arptables-nft -N USER
arptables-nft -A USER -j ACCEPT
arptables-nft -A INPUT -j USER
arptables-nft -P INPUT DROP
arptables-nft -L -n
arptables-nft -D INPUT 1
arptables-nft -R INPUT 1 -s 10.0.0.3 -j DROP
arptables-nft -L -n --line-numbers
arptables-nft-save
nft list ruleset
