delete map inet f ports
delete chain inet f web
