delete table inet f
table inet f {
	chain input {
		type filter hook input priority 0; policy accept;
	}
}
delete chain inet f input
add chain inet f input { type filter hook input priority 1; }
add table ip g
delete table ip g
add table ip g
